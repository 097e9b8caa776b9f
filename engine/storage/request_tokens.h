// TransactWriteItems' ClientRequestToken: which tokens completed (and when, with which
// parameters) and which are in flight, so a repeat applies nothing again
// (../shared/aws-semantics.md section 3).
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// At most this many completed tokens are remembered (about 125 bytes each: ~125 MB at most,
// reached only above ~1,600 tokened transactions a second for ten minutes). Past it the oldest
// completed token is forgotten first, before its ten minutes are up: a repeat of it then runs
// again, as a new call would.
inline constexpr size_t kMaxRememberedTokens = 1'000'000;

class RequestTokens {
 public:
  explicit RequestTokens(size_t max_remembered = kMaxRememberedTokens)
      : max_remembered_(max_remembered) {}

  enum class Claim { kRun, kReplay };
  // Before a call with `token`: kRun (the caller runs it, and must then call Finish), kReplay (a
  // call with the same parameters completed within the window: answer without applying it), or
  // IdempotentParameterMismatchException (different parameters) or
  // TransactionInProgressException (a call with the token is still running).
  Result<Claim> Begin(const std::string& token, uint64_t fingerprint, int64_t now_ms);
  // After a call Begin let run: a completed one is remembered for the window; a failed one is
  // forgotten, so a repeat is evaluated afresh.
  void Finish(const std::string& token, bool completed, int64_t now_ms);

  // A completed call, as the store keeps it across restarts (engine/persistence/).
  struct Completed {
    std::string token;
    uint64_t fingerprint = 0;
    int64_t completed_ms = 0;
  };
  // Remembers a call that completed (replayed from the log), unless its window has passed.
  void Restore(const Completed& completed, int64_t now_ms);
  // The completed calls still within their window.
  std::vector<Completed> CompletedWithin(int64_t now_ms);
  // Tokens remembered now (completed and in flight), and completed ones forgotten early, ever.
  size_t size();
  uint64_t forgotten_early();

 private:
  struct Entry {
    uint64_t fingerprint = 0;
    int64_t completed_ms = -1;  // -1: in flight
  };
  void ForgetExpiredLocked(int64_t now_ms);
  // Remembers that `token` completed at `completed_ms`, forgetting the oldest past the bound.
  void CompletedLocked(const std::string& token, int64_t completed_ms);
  // Forgets the oldest completion if the token still holds it (a token run again since has a
  // later one).
  void ForgetOldestLocked();

  const size_t max_remembered_;
  std::mutex mutex_;
  absl::flat_hash_map<std::string, Entry> tokens_;
  // Completions in the order they happened (the clock's): the oldest is forgotten first.
  std::deque<std::pair<int64_t, std::string>> completions_;
  uint64_t forgotten_early_ = 0;
};

}  // namespace ddbd
