#include "engine/transactions/request_tokens.h"

#include "engine/transactions/transactions.h"

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
  } else {
    tokens_.erase(it);
  }
}

void RequestTokens::Restore(const Completed& completed, int64_t now_ms) {
  if (now_ms - completed.completed_ms >= kIdempotencyWindowMs) return;
  std::lock_guard lock(mutex_);
  tokens_[completed.token] = Entry{completed.fingerprint, completed.completed_ms};
}

std::vector<RequestTokens::Completed> RequestTokens::CompletedWithin(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::vector<Completed> completed;
  for (const auto& [token, entry] : tokens_) {
    if (entry.completed_ms >= 0 && now_ms - entry.completed_ms < kIdempotencyWindowMs) {
      completed.push_back({token, entry.fingerprint, entry.completed_ms});
    }
  }
  return completed;
}

void RequestTokens::ForgetExpiredLocked(int64_t now_ms) {
  // At most once a minute: the map holds only tokens of the last ten minutes.
  if (now_ms < next_sweep_ms_) return;
  next_sweep_ms_ = now_ms + 60'000;
  absl::erase_if(tokens_, [now_ms](const auto& entry) {
    return entry.second.completed_ms >= 0 &&
           now_ms - entry.second.completed_ms >= kIdempotencyWindowMs;
  });
}

}  // namespace ddbd
