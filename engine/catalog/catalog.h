// The catalog: every table (its description, items, indexes and what observes them) by name, the
// one path by which tables are created, changed and deleted, and the commit log every table's
// writes publish to. The engine holds it; every feature that reaches a table is given it (never
// the engine: features stand below engine.h, issue 38).
//
// Thread safety: `mutex` guards `tables`; members ending in Locked need it held (exclusively
// where they change something), the others take it themselves.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/options.h"
#include "engine/api/tables.h"
#include "engine/capacity/contributor_traffic.h"
#include "engine/capacity/throughput.h"
#include "engine/capacity/usage.h"
#include "engine/catalog/table_metadata.h"
#include "engine/clock.h"
#include "engine/model/item_key.h"
#include "engine/storage/change.h"
#include "engine/storage/expiry_index.h"
#include "engine/storage/point_in_time_history.h"
#include "engine/storage/replica_log.h"
#include "engine/storage/replica_versions.h"
#include "engine/storage/table_indexes.h"
#include "engine/storage/table_items.h"
#include "engine/storage/table_vectors.h"
#include "engine/streams/stream_directory.h"
#include "engine/streams/table_stream.h"

namespace ddbd {

class Journal;  // engine/persistence/journal.h

// What the item calls of a global table with multi-region strong consistency need: the link and
// the other members (ReplicationLink::BeginStrongWrite and CheckStrongRead).
struct StrongTable {
  ReplicationLink* link = nullptr;
  std::string region;  // this one
  StrongMembers members;
};

// Version 2017.11.29's item attributes: every write made in a member of such a global table
// stamps its item with `aws:rep:deleting` (false), `aws:rep:updatetime` (the write's time in
// seconds, six decimals) and `aws:rep:updateregion` (this region), as DynamoDB's Developer Guide
// names them ("Global tables: How it works", version 2017.11.29). One per catalog.
struct ReplicationStamp {
  std::string region;
  const Clock* clock = nullptr;
  // Sets the three attributes on `item`, replacing any of the names the item had.
  void Apply(Item& item) const;
};

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
  // Null unless a Kinesis streaming destination is enabled: the table's changes kept for it, a
  // stream of both images that the DynamoDB Streams calls do not see, under
  // <table ARN>/kinesis-feed/<label of the enabling> (engine/kinesis/kinesis_delivery.h sends
  // it on).
  std::shared_ptr<TableStream> kinesis_feed;
  // Null unless point-in-time recovery is enabled (engine/storage/point_in_time_history.h).
  std::shared_ptr<PointInTimeHistory> history;
  std::shared_ptr<TableVectors> vectors;  // null unless the table has vector indexes
  // Null unless the table has replicas in other regions (engine/storage/replica_log.h).
  std::shared_ptr<ReplicaLog> replicas;
  // Its items' write versions: with `replicas`, and while the log is replayed, from the records
  // that carry one (engine/storage/replica_versions.h).
  std::shared_ptr<ReplicaVersions> versions;
  // Null unless the table is a STRONG global table's member (set with `replicas`).
  std::shared_ptr<const StrongTable> strong;
  // Null unless Contributor Insights is enabled on the table or a global index: its counters
  // (engine/capacity/contributor_traffic.h), in memory only.
  std::shared_ptr<const ContributorTraffic> insights;
};

// What a vector search needs of a table: its items (whose lock guards the vectors too), its
// vector indexes and its description.
struct VectorTable {
  std::shared_ptr<TableItems> items;
  std::shared_ptr<TableVectors> vectors;  // null: the table has no vector index
  TableDescription description;
};

// What an item operation needs of a table; keeps the items alive if the table is deleted
// meanwhile.
struct ItemTable {
  std::shared_ptr<TableItems> items;
  KeyShape key_shape;
  std::shared_ptr<const TableIndexes> indexes;
  uint64_t index_generation = 0;  // of `indexes`, for TableItems::Commit
  bool backfilling = false;       // an index update is still running: created indexes backfill
  std::shared_ptr<TableThroughput> throughput;         // null unless throughput is enforced
  std::shared_ptr<CapacityUsage> usage;                // the table's (TableEntry::usage)
  std::shared_ptr<const StrongTable> strong;           // TableEntry::strong
  std::shared_ptr<const ContributorTraffic> insights;  // TableEntry::insights
  // Non-null for a member of a version 2017.11.29 global table: what its writes add.
  const ReplicationStamp* stamp = nullptr;
};

// The item a put stores in `table`: `item` itself, or for a member of a version 2017.11.29 global
// table, a copy made in `copy` with the stamp applied (sized again by the caller).
inline const Item& StampedItem(const ItemTable& table, const Item& item,
                               std::optional<Item>& copy) {
  if (table.stamp == nullptr) return item;
  table.stamp->Apply(copy.emplace(item));
  return *copy;
}

// What an UpdateTable's index changes ask of the table's items: slots to fill and to empty, and
// how to compute the entries of the new set of indexes.
struct IndexChange {
  std::vector<size_t> added;
  std::vector<size_t> dropped;
  TableItems::EntriesOf entries_of;
  TableItems::IndexPartitionLength partition_length;
};
// After the entry's index descriptions changed: installs the new TableIndexes and returns what
// the items must change (TableItems::ChangeIndexes). Caller holds the catalog exclusively.
IndexChange ReindexLocked(TableEntry& entry);

// A change to the catalog, as Catalog::CommitLocked makes it.
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
  // kUpdateTable: if set, vector indexes it adds are attached but left for the caller to fill
  // (FillVectorIndex), after it releases the catalog; else filled at once (replay).
  std::vector<std::shared_ptr<TableVector>>* vectors_to_fill = nullptr;
};

// What a kTableMetadata change carries from one description to another: tags, resource policies,
// Kinesis streaming destinations and point-in-time recovery settings (nothing the items or
// indexes depend on).
void CopyTableMetadata(const TableDescription& from, TableDescription& to);

// CreateTable as the table calls make it (engine/tables/table_operations.h), handed by the engine
// that holds them to the services that make tables of their own (restores, imports), so that none
// of those stands on the table calls.
using CreateTableCall = std::function<Result<TableOutcome>(const CreateTableArgs&)>;
// UpdateTable the same way, for version 2017.11.29's UpdateGlobalTableSettings (engine/replicas/).
using UpdateTableCall = std::function<Result<TableOutcome>(const UpdateTableArgs&)>;

struct Catalog final : public TableMetadata {
  Catalog(const EngineOptions& engine_options, const Clock& engine_clock)
      : options(engine_options), clock(engine_clock), stamp{options.region, &clock} {}

  // TableMetadata.
  const std::string& region() const override { return options.region; }
  const std::string& account_id() const override { return options.account_id; }
  std::string TableArn(std::string_view table_name) const override;
  std::vector<std::string> TableNames() const override;
  std::optional<TableDescription> Describe(std::string_view table_name) const override;
  Result<Ticket> ChangeMetadata(const std::string& table_name,
                                const std::function<Status(TableDescription&)>& change) override;

  // The entry's description with its status as of `now_ms`, without the live counts: those
  // (FillCounts) take the table's items lock, which a backfill holds for seconds, so callers
  // fill them in after releasing `mutex`.
  static TableDescription Snapshot(const TableEntry& entry, int64_t now_ms);
  // A global table's replica transitions as of `now_ms`: an UPDATING replica whose period has
  // ended is ACTIVE, a DELETING one is no longer listed (a table left alone is this region's
  // alone again), and while any member is not ACTIVE the table is UPDATING, as DynamoDB's is
  // while a replica is made, changed or removed. Part of Snapshot.
  static void SettleReplicas(TableDescription& table, int64_t now_ms);
  // True once a DELETING table's deletion has completed: it no longer exists.
  static bool IsGone(const TableEntry& entry, int64_t now_ms);
  // The live item counts and sizes of the table and its indexes.
  static void FillCounts(const TableItems& items, TableDescription& description);
  // Looks a live table up; caller holds `mutex`. Null if absent or gone.
  const TableEntry* FindLocked(std::string_view table_name, int64_t now_ms) const;
  // What an item operation needs of a live table; ResourceNotFoundException "Requested resource
  // not found" when it is not here.
  Result<ItemTable> FindItemTable(std::string_view table_name) const;
  // The same for a vector search; ResourceNotFoundException with DescribeTable's text.
  Result<VectorTable> FindVectorTable(std::string_view table_name) const;
  // Under `mutex` exclusively: the entry's vector indexes observe its items exactly as its
  // description lists them (but those DELETING). One added is filled from the items before it is
  // published, or, given `to_fill`, attached and listed there for FillVectorIndex: a large
  // table's fill then holds up its own table's writers only, not the catalog.
  void SyncVectorsLocked(TableEntry& entry,
                         std::vector<std::shared_ptr<TableVector>>* to_fill = nullptr);
  // Fills `index` (attached by SyncVectorsLocked) from every item of `items`, under their read
  // lock; searches refuse it until then.
  static void FillVectorIndex(const TableItems& items, TableVector& index);
  // The live item counts and sizes of the table's vector indexes, under its items' read lock.
  static void FillVectorCounts(const TableItems& items, const TableVectors* vectors,
                               TableDescription& description);
  void PurgeGoneLocked(int64_t now_ms);
  // With --gsi-lag-ms, the table's global indexes take its writes' changes after the delay
  // (engine/storage/index_lag.h); with --stale-reads-ms, its eventually consistent reads see
  // the past (engine/storage/item_history.h). NewEntry calls it, but during a replay (Store::Open,
  // after).
  void StartEventualConsistency(TableEntry& entry) const;
  // A table entry for `table` (indexes, partitions, collections, throughput), not yet in the
  // catalog: CreateTable's, a restore's and recovery's.
  std::unique_ptr<TableEntry> NewEntry(const TableDescription& table);
  // The one way the catalog changes (tables created, their descriptions and index sets
  // updated, tables deleted). Caller holds `mutex` exclusively and has checked the change. A
  // deletion without a DELETING period removes the table at once.
  // Returns the ticket of its log record (0 without a store).
  uint64_t CommitLocked(CatalogChange change);
  // The entry's stream and Kinesis feed, those it has, observe its table (and hand their records
  // to the journal, if any).
  void AttachStreamLocked(TableEntry& entry);
  // Under `mutex` exclusively: the entry's Contributor Insights counters match its settings.
  static void SyncInsightsLocked(TableEntry& entry);
  // The bounds every stream gets from the options.
  TableStream::Settings StreamSettings() const;
  // Under `mutex` exclusively, once the log is replayed: the entry keeps a point-in-time history
  // exactly while its description enables point-in-time recovery; a new one restores to
  // `start_ms` at the earliest.
  void SyncHistoryLocked(TableEntry& entry, int64_t start_ms);
  // Under `mutex` exclusively, once the log is replayed: the entry's replica log observes its
  // items exactly while its description lists replicas, and sends to every other member.
  void SyncReplicasLocked(TableEntry& entry);
  // How old a history entry of `table` may grow: its recovery period, capped by the options.
  int64_t HistoryAgeMs(const TableDescription& table) const;
  // Checkpoints, under `mutex`: the bytes the store holds (items and stream records), and every
  // stream's state with its records, each taken under its table's read lock (no commit halfway:
  // every record dumped has been logged).
  int64_t LiveBytesLocked() const;
  std::vector<StreamState> DumpStreamsLocked() const;

  const EngineOptions& options;
  const Clock& clock;
  const ReplicationStamp stamp;  // ItemTable::stamp of version 2017.11.29's members
  CommitLog log;
  mutable std::shared_mutex mutex;  // guards `tables`
  // Ordered by name: ListTables pages in DynamoDB's (byte-wise) name order.
  std::map<std::string, std::unique_ptr<TableEntry>, std::less<>> tables;
  // Every stream, enabled or not, until its records age out.
  StreamDirectory streams;
  std::atomic<uint64_t> next_table_id = 1;  // TableItems ids: ordered write scopes
  // The store's journal every change is logged through, once it is open (null: memory only).
  Journal* journal = nullptr;
  // While the store replays its log (guarded by `mutex`): streams do not observe yet, and the
  // tables are found by TableId, as log records name them.
  bool replaying = false;
  absl::flat_hash_map<std::string, TableEntry*> replayed_tables;

 private:
  // Under `mutex` exclusively: the entry's stream starts (with a label no other stream of the
  // table had) or ends, as its description's StreamSpecification now says. While the log is
  // replayed, the stream is the one replay restored, or a new one under the description's
  // label, and is attached (AttachStreamLocked) once replay is done.
  void StartStreamLocked(TableEntry& entry, int64_t now_ms);
  void StopStreamLocked(TableEntry& entry);
  // Under `mutex` exclusively: the entry has a Kinesis feed exactly while its description has an
  // enabled destination and the engine a Kinesis endpoint, a new one for each enabling (named by
  // its time); while the log is replayed, the one replay restored, attached once replay is done. A
  // feed closed keeps its records for the delivery to finish.
  void SyncFeedLocked(TableEntry& entry, int64_t now_ms);
  void CloseFeedLocked(TableEntry& entry, int64_t now_ms);
};

// Inline: every item call starts here, in its own translation unit.
inline Result<ItemTable> Catalog::FindItemTable(std::string_view table_name) const {
  const int64_t now_ms = clock.NowMs();
  std::shared_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) return Error::ResourceNotFound("Requested resource not found");
  // Read together under the catalog lock, which UpdateTable holds while it changes both.
  return ItemTable{entry->items,
                   entry->key_shape,
                   entry->indexes,
                   entry->items->index_generation(),
                   now_ms < entry->transition_done_ms,
                   entry->throughput,
                   entry->usage,
                   entry->strong,
                   entry->insights,
                   entry->description.legacy_global_table_created_ms != 0 ? &stamp : nullptr};
}

}  // namespace ddbd
