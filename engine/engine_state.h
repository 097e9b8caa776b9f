// What stands behind engine/engine.h: the catalog of tables (each a description and its items),
// and the commit log every table's commit path publishes to. Private to the engine's own files.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/tables.h"
#include "engine/backups/point_in_time_history.h"
#include "engine/capacity/throughput.h"
#include "engine/capacity/usage.h"
#include "engine/catalog/table_metadata.h"
#include "engine/engine.h"
#include "engine/model/item_key.h"
#include "engine/periodic_task.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/journal.h"
#include "engine/storage/change.h"
#include "engine/storage/table_indexes.h"
#include "engine/storage/table_items.h"
#include "engine/streams/table_stream.h"
#include "engine/transactions/delayed_tasks.h"
#include "engine/transactions/held_items.h"
#include "engine/transactions/request_tokens.h"
#include "engine/ttl/expiry_index.h"

namespace ddbd {

struct TableEntry {
  TableDescription description;
  int64_t transition_done_ms = 0;  // when a CREATING/UPDATING/DELETING status ends
  KeyShape key_shape;
  std::shared_ptr<TableItems> items;
  std::shared_ptr<const TableIndexes> indexes = std::make_shared<TableIndexes>();
  size_t next_index_slot = 0;                   // slots of deleted indexes are not reused
  std::shared_ptr<TableThroughput> throughput;  // null unless throughput is enforced
  // What the table consumed, ever (metrics); always there.
  std::shared_ptr<CapacityUsage> usage = std::make_shared<CapacityUsage>();
  std::shared_ptr<ExpiryIndex> expiry;  // null unless Time to Live is enabled
  std::shared_ptr<TableStream> stream;  // null unless its stream is enabled
  // Null unless point-in-time recovery is enabled (engine/backups/point_in_time_history.h).
  std::shared_ptr<PointInTimeHistory> history;
};

// What an item operation needs of a table; keeps the items alive if the table is deleted
// meanwhile.
struct ItemTable {
  std::shared_ptr<TableItems> items;
  KeyShape key_shape;
  std::shared_ptr<const TableIndexes> indexes;
  uint64_t index_generation = 0;  // of `indexes`, for TableItems::Commit
  bool backfilling = false;       // an index update is still running: created indexes backfill
  std::shared_ptr<TableThroughput> throughput;  // null unless throughput is enforced
  std::shared_ptr<CapacityUsage> usage;         // the table's (TableEntry::usage)
};

// What an UpdateTable's index changes ask of the table's items: slots to fill and to empty, and
// how to compute the entries of the new set of indexes.
struct IndexChange {
  std::vector<size_t> added;
  std::vector<size_t> dropped;
  TableItems::EntriesOf entries_of;
};
// After the entry's index descriptions changed: installs the new TableIndexes and returns what
// the items must change (TableItems::ChangeIndexes). Caller holds the catalog exclusively.
IndexChange ReindexLocked(TableEntry& entry);

// A table as a checkpoint writes it: its description when the log was rolled, and its items,
// walked after.
struct Engine::CheckpointTable {
  TableDescription description;
  std::shared_ptr<const TableItems> items;
};

// A change to the catalog, as State::CommitCatalogLocked makes it.
struct CatalogChange {
  enum class Kind { kCreateTable, kUpdateTable, kDeleteTable, kUpdateTimeToLive, kTableMetadata };
  Kind kind = Kind::kCreateTable;
  std::string table_name;
  std::unique_ptr<TableEntry> created;  // kCreateTable
  // kUpdateTable, kDeleteTable: the table's new description; kTableMetadata: its tags, resource
  // policies and point-in-time recovery settings.
  TableDescription description;
  int64_t transition_done_ms = 0;  // when its CREATING/UPDATING/DELETING status ends
  int64_t now_ms = 0;
  std::shared_ptr<ExpiryIndex> expiry;  // kUpdateTimeToLive: the new index (null: disabled)
};

// What a kTableMetadata change carries from one description to another: tags, resource policies
// and point-in-time recovery settings (nothing the items or indexes depend on).
void CopyTableMetadata(const TableDescription& from, TableDescription& to);

// The engine's state, and the catalog as the features that keep state in a table's description
// see it (TableMetadata: tags today; the rest as they move out of Engine's members).
struct Engine::State final : public TableMetadata {
  State(const EngineOptions& engine_options, const Clock& engine_clock)
      : options(engine_options), clock(engine_clock) {}

  // TableMetadata (engine/engine_metadata.cc).
  const std::string& region() const override { return options.region; }
  const std::string& account_id() const override { return options.account_id; }
  std::string TableArn(std::string_view table_name) const override;
  std::optional<TableDescription> Describe(std::string_view table_name) const override;
  Result<Ticket> ChangeMetadata(const std::string& table_name,
                                const std::function<Status(TableDescription&)>& change) override;

  const EngineOptions& options;
  const Clock& clock;
  CommitLog log;
  mutable std::shared_mutex mutex;  // guards `tables`
  // Ordered by name: ListTables pages in DynamoDB's (byte-wise) name order.
  std::map<std::string, std::unique_ptr<TableEntry>, std::less<>> tables;
  // Every stream, enabled or not, by ARN, until its records age out (guarded by `mutex`).
  std::map<std::string, std::shared_ptr<TableStream>, std::less<>> streams;
  std::atomic<uint64_t> next_table_id = 1;  // TableItems ids: ordered write scopes
  std::atomic<uint64_t> next_transaction_id = 1;
  RequestTokens request_tokens;  // TransactWriteItems' ClientRequestTokens
  HeldItems held;                // items of transactions in flight (--transaction-hold-ms)
  // Held transactions' commits; only with a hold. Stopped first when the engine goes.
  std::unique_ptr<DelayedTasks> delayed;
  // On-demand backups by BackupKey (engine/backups/backups.h): shared, as a restore reads one
  // while others come and go.
  mutable std::shared_mutex backups_mutex;
  std::map<std::string, std::shared_ptr<const Backup>, std::less<>> backups;
  std::mutex time_to_live_mutex;  // one UpdateTimeToLive at a time: it indexes outside `mutex`
  // The TTL sweeper (EngineOptions::ttl_interval_ms); stopped before anything else goes.
  std::unique_ptr<PeriodicTask> sweeper;
  // Persistence (EngineOptions::db_path): the directory's lock, the file system when the engine
  // made its own, and the journal every change is logged through (null: memory only).
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
  // Engine::OpenStore replays the log: streams do not observe yet (guarded by `mutex`).
  bool replaying = false;
  // While replaying: the tables by TableId, as log records name them.
  absl::flat_hash_map<std::string, TableEntry*> replayed_tables;

  // The entry's description with its status as of `now_ms`, without the live counts: those
  // (FillCounts) take the table's items lock, which a backfill holds for seconds, so callers
  // fill them in after releasing `mutex`.
  static TableDescription Snapshot(const TableEntry& entry, int64_t now_ms);
  // True once a DELETING table's deletion has completed: it no longer exists.
  static bool IsGone(const TableEntry& entry, int64_t now_ms);
  // The live item counts and sizes of the table and its indexes.
  static void FillCounts(const TableItems& items, TableDescription& description);
  // Looks a live table up; caller holds `mutex`. Null if absent or gone.
  const TableEntry* FindLocked(std::string_view table_name, int64_t now_ms) const;
  void PurgeGoneLocked(int64_t now_ms);
  // The one way the catalog changes (tables created, their descriptions and index sets
  // updated, tables deleted). Caller holds `mutex` exclusively and has checked the change. A
  // deletion without a DELETING period removes the table at once.
  // Returns the ticket of its log record (0 without a store).
  uint64_t CommitCatalogLocked(CatalogChange change);
  // Under `mutex` exclusively: the entry's stream starts (with a label no other stream of the
  // table had) or ends, as its description's StreamSpecification now says.
  // While the log is replayed, the stream is the one replay restored, or a new one under the
  // description's label, and is attached (AttachStreamLocked) once replay is done.
  void StartStreamLocked(TableEntry& entry, int64_t now_ms);
  // The entry's stream observes its table (and hands its records to the journal, if any).
  void AttachStreamLocked(TableEntry& entry);
  // Checkpoints (engine/persistence/checkpoint.cc), under `mutex`: the bytes the store holds
  // (items and stream records), and every stream's state with its records, each taken under
  // its table's read lock (no commit halfway: every record dumped has been logged).
  int64_t LiveBytesLocked() const;
  std::vector<StreamState> DumpStreamsLocked() const;
  // The bounds every stream gets from the options.
  TableStream::Settings StreamSettings() const;
  // The stream with `arn` (takes `mutex` shared); null if there is none or it has aged out.
  std::shared_ptr<TableStream> FindStream(std::string_view arn) const;
  void StopStreamLocked(TableEntry& entry);
  // Under `mutex` exclusively, once the log is replayed: the entry keeps a point-in-time history
  // exactly while its description enables point-in-time recovery (engine/backups/point_in_time.cc);
  // a new one restores to `start_ms` at the earliest.
  void SyncHistoryLocked(TableEntry& entry, int64_t start_ms);
  // How old a history entry of `table` may grow: its recovery period, capped by the options.
  int64_t HistoryAgeMs(const TableDescription& table) const;
};

}  // namespace ddbd
