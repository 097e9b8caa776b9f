// The store's durability settings: --sync (how durable an acknowledged write is,
// engine/persistence/log_writer.h) and --wal-recovery-mode (what a start does with a damaged log,
// engine/persistence/recovery.h).
#pragma once

#include <functional>

namespace ddbd {

// kFull syncs every group commit before acknowledging it; kOff acknowledges once written (a
// crash may lose the last writes, never corrupt the rest).
enum class SyncPolicy { kFull, kOff };

// When a group commit starts (EngineOptions::group_commit_start). Called with `start` by a thread
// that queued a record (once until `start` has run), it runs `start` once that thread has done
// the work it has ready: the server posts it behind its I/O thread's queued handlers, so one
// group takes every write of a round of ready requests, where waking the log's thread at the
// first record (which on one core preempts the I/O thread) took them one to three at a time.
using GroupCommitStart = std::function<void(std::function<void()> start)>;

enum class WalRecoveryMode {
  // Only a torn tail a crash can leave is dropped (and logged); any other damage refuses the
  // start, naming the file, the offset and what would be lost.
  kTolerateCorruptedTail,
  // Replay up to the first damage, move what follows to <db-path>/lost/, report exactly what.
  kPointInTime,
};

}  // namespace ddbd
