// --sync: how durable an acknowledged write is (engine/persistence/log_writer.h).
#pragma once

namespace ddbd {

// kFull syncs every group commit before acknowledging it; kOff acknowledges once written (a
// crash may lose the last writes, never corrupt the rest).
enum class SyncPolicy { kFull, kOff };

}  // namespace ddbd
