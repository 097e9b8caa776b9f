// TransactWriteItems' ClientRequestToken: which tokens completed (and when, with which
// parameters) and which are in flight, so a repeat applies nothing again
// (../shared/aws-semantics.md section 3).
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "engine/error.h"

namespace ddbd {

class RequestTokens {
 public:
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

 private:
  struct Entry {
    uint64_t fingerprint = 0;
    int64_t completed_ms = -1;  // -1: in flight
  };
  void ForgetExpiredLocked(int64_t now_ms);

  std::mutex mutex_;
  absl::flat_hash_map<std::string, Entry> tokens_;
  int64_t next_sweep_ms_ = 0;
};

}  // namespace ddbd
