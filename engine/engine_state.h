// What stands behind engine/engine.h: the catalog of tables (engine/catalog/catalog.h) and the
// state of the features the engine holds. Private to the engine's own files.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/engine.h"
#include "engine/periodic_task.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/journal.h"
#include "engine/transactions/transactions.h"
#include "engine/ttl/time_to_live.h"

namespace ddbd {

// A table as a checkpoint writes it: its description when the log was rolled, and its items,
// walked after.
struct Engine::CheckpointTable {
  TableDescription description;
  std::shared_ptr<const TableItems> items;
};

// The engine's state: the catalog, and what the features that are not yet services of their own
// keep (issue 38 moves them out one area at a time).
struct Engine::State {
  State(const EngineOptions& engine_options, const Clock& engine_clock)
      : catalog(engine_options, engine_clock) {}

  Catalog catalog;
  // Stops holding first when the engine goes (~Engine).
  Transactions transactions{catalog};
  // On-demand backups by BackupKey (engine/backups/backups.h): shared, as a restore reads one
  // while others come and go.
  mutable std::shared_mutex backups_mutex;
  std::map<std::string, std::shared_ptr<const Backup>, std::less<>> backups;
  TimeToLive time_to_live{catalog, transactions.held()};
  // The TTL sweeper (EngineOptions::ttl_interval_ms); stopped before anything else goes.
  std::unique_ptr<PeriodicTask> sweeper;
  // Persistence (EngineOptions::db_path): the directory's lock, the file system when the engine
  // made its own, and the journal every change is logged through (null: memory only; the
  // catalog holds it too).
  std::unique_ptr<FileSystem> own_files;
  FileSystem* files = nullptr;  // own_files or EngineOptions::file_system
  std::unique_ptr<FileLock> store_lock;
  std::unique_ptr<Journal> journal;
  // Background checkpoints (EngineOptions::checkpoint_log_bytes); stopped before the journal
  // goes. `checkpoint_mutex`: one checkpoint at a time; `log_bytes_at_checkpoint` is written
  // under it and read without it (metrics).
  std::unique_ptr<PeriodicTask> checkpointer;
  std::mutex checkpoint_mutex;
  std::atomic<uint64_t> log_bytes_at_checkpoint = 0;
  LatencyHistogram checkpoint_durations;  // of each checkpoint written
};

}  // namespace ddbd
