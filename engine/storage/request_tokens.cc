#include "engine/storage/request_tokens.h"

#include <algorithm>

#include "engine/api/transactions.h"

namespace ddbd {

Result<RequestTokens::Claim> RequestTokens::Begin(const std::string& token, uint64_t fingerprint,
                                                  int64_t now_ms) {
  std::lock_guard lock(mutex_);
  ForgetExpiredLocked(now_ms);
  auto [it, inserted] = tokens_.try_emplace(token, Entry{fingerprint, -1});
  if (inserted) return Claim::kRun;
  Entry& entry = it->second;
  if (entry.completed_ms >= 0 && now_ms - entry.completed_ms >= kIdempotencyWindowMs) {
    entry = Entry{fingerprint, -1};
    return Claim::kRun;
  }
  if (entry.fingerprint != fingerprint) {
    // UNCONFIRMED text: the API reference names the exception, not its message.
    return Error(ErrorCode::kIdempotentParameterMismatch,
                 "Specified idempotent token was used with different request parameters within "
                 "the idempotency window");
  }
  if (entry.completed_ms < 0) {
    // UNCONFIRMED text.
    return Error(ErrorCode::kTransactionInProgress,
                 "Transaction with the provided request token is already in progress");
  }
  return Claim::kReplay;
}

void RequestTokens::Finish(const std::string& token, bool completed, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  auto it = tokens_.find(token);
  if (it == tokens_.end()) return;
  if (completed) {
    it->second.completed_ms = now_ms;
    CompletedLocked(token, now_ms);
  } else {
    tokens_.erase(it);
  }
}

void RequestTokens::Restore(const Completed& completed, int64_t now_ms) {
  if (now_ms - completed.completed_ms >= kIdempotencyWindowMs) return;
  std::lock_guard lock(mutex_);
  tokens_[completed.token] = Entry{completed.fingerprint, completed.completed_ms};
  CompletedLocked(completed.token, completed.completed_ms);
}

void RequestTokens::CompletedLocked(const std::string& token, int64_t completed_ms) {
  completions_.emplace_back(completed_ms, token);
  while (completions_.size() > max_remembered_) {
    ForgetOldestLocked();
    ++forgotten_early_;
  }
}

void RequestTokens::ForgetOldestLocked() {
  const auto& [completed_ms, token] = completions_.front();
  auto it = tokens_.find(token);
  if (it != tokens_.end() && it->second.completed_ms == completed_ms) tokens_.erase(it);
  completions_.pop_front();
}

size_t RequestTokens::size() {
  std::lock_guard lock(mutex_);
  return tokens_.size();
}

uint64_t RequestTokens::forgotten_early() {
  std::lock_guard lock(mutex_);
  return forgotten_early_;
}

std::vector<RequestTokens::Completed> RequestTokens::CompletedWithin(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::vector<Completed> completed;
  for (const auto& [token, entry] : tokens_) {
    if (entry.completed_ms >= 0 && now_ms - entry.completed_ms < kIdempotencyWindowMs) {
      completed.push_back({token, entry.fingerprint, entry.completed_ms});
    }
  }
  // Oldest first, so a restart restores them in the order they are forgotten.
  std::sort(completed.begin(), completed.end(),
            [](const Completed& a, const Completed& b) { return a.completed_ms < b.completed_ms; });
  return completed;
}

void RequestTokens::ForgetExpiredLocked(int64_t now_ms) {
  // Oldest first, each completion once: the map holds only tokens of the last ten minutes.
  while (!completions_.empty() && now_ms - completions_.front().first >= kIdempotencyWindowMs) {
    ForgetOldestLocked();
  }
}

}  // namespace ddbd
