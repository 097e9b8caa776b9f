// The store's durability settings: --sync (how durable an acknowledged write is,
// engine/persistence/log_writer.h) and --wal-recovery-mode (what a start does with a damaged log,
// engine/persistence/recovery.h).
#pragma once

namespace ddbd {

// kFull syncs every group commit before acknowledging it; kOff acknowledges once written (a
// crash may lose the last writes, never corrupt the rest).
enum class SyncPolicy { kFull, kOff };

enum class WalRecoveryMode {
  // Only a torn tail a crash can leave is dropped (and logged); any other damage refuses the
  // start, naming the file, the offset and what would be lost.
  kTolerateCorruptedTail,
  // Replay up to the first damage, move what follows to <db-path>/lost/, report exactly what.
  kPointInTime,
};

}  // namespace ddbd
