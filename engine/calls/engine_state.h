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

#include "engine/api/options.h"
#include "engine/backups/on_demand_backups.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/exports/export_jobs.h"
#include "engine/exports/import_jobs.h"
#include "engine/kinesis/kinesis_delivery.h"
#include "engine/periodic_task.h"
#include "engine/store/store.h"
#include "engine/tables/table_operations.h"
#include "engine/transactions/transactions.h"
#include "engine/triggers/stream_triggers.h"
#include "engine/ttl/ttl_sweeper.h"

namespace ddbd {

class Engine;  // engine/engine.h

// The engine's state: the catalog, and the services that own each feature's state, each given
// what it uses (never the engine). Members go in reverse order: the store first.
struct EngineState {
  EngineState(const EngineOptions& engine_options, const Clock& engine_clock)
      : catalog(engine_options, engine_clock) {}

  Catalog catalog;
  // Stops holding first when the engine goes (~Engine).
  Transactions transactions{catalog};
  Backups backups{catalog,
                  [this](const CreateTableArgs& args) { return CreateTable(catalog, args); }};
  TimeToLive time_to_live{catalog, transactions.held()};
  // Where exports and imports find buckets (--s3-endpoint's store, --s3-dir, or none).
  std::shared_ptr<ObjectStore> buckets = catalog.options.buckets ? catalog.options.buckets
                                         : catalog.options.s3_dir.empty()
                                             ? std::shared_ptr<ObjectStore>(NewAbsentObjectStore())
                                             : NewDirectoryObjectStore(catalog.options.s3_dir);
  // Their threads stop (~Engine) before the store and the tables go.
  Exports exports{catalog, *buckets};
  Imports imports{catalog, *buckets,
                  [this](const CreateTableArgs& args) { return CreateTable(catalog, args); }};
  // The TTL sweeper (EngineOptions::ttl_interval_ms); stopped before anything else goes.
  std::unique_ptr<PeriodicTask> sweeper;
  // With EngineOptions::kinesis: Kinesis streaming destinations' records sent on, by a task of
  // its own (stopped with the sweeper).
  std::unique_ptr<KinesisDelivery> kinesis_delivery;
  std::unique_ptr<PeriodicTask> kinesis_task;
  // With EngineOptions::stream_triggers: the triggers' delivery, by a task of its own (stopped
  // with the sweeper).
  std::unique_ptr<StreamTriggers> stream_triggers;
  std::unique_ptr<PeriodicTask> trigger_task;
  // With EngineOptions::db_path: the log, its journal (which the catalog logs through) and
  // checkpoints. Goes first: its checkpointer and journal stop before the tables go.
  Store store{catalog, transactions.request_tokens()};
};

// Starts the TTL sweeper's thread, with EngineOptions::ttl_interval_ms (after a store's replay:
// its deletes must be logged), calling `engine`'s SweepExpiredItems.
void StartSweeper(EngineState& state, Engine& engine);
// Starts delivering Kinesis streaming destinations' records, with EngineOptions::kinesis (after a
// store's replay: each delivery is logged).
void StartKinesisDelivery(EngineState& state);
// Starts the stream triggers, with EngineOptions::stream_triggers (after a store's replay: the
// streams are whole, and the triggers' positions are read from beside the log).
void StartStreamTriggers(EngineState& state);

}  // namespace ddbd
