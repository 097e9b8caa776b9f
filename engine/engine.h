// The engine's contract: the catalog of tables and the operations on their items. What each call
// does, returns and fails with is stated here; storage, indexes, locking and the commit path live
// behind it (engine/calls/engine_state.h and the folders of engine/). The engine never sees JSON,
// HTTP or configuration; server/main.cc hands it EngineOptions.
//
// Thread safety: every public member may be called from any thread, except Subscribe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/backups.h"
#include "engine/api/continuous_backups.h"
#include "engine/api/contributor_insights.h"
#include "engine/api/exports.h"
#include "engine/api/imports.h"
#include "engine/api/items.h"
#include "engine/api/kinesis.h"
#include "engine/api/legacy_global_tables.h"
#include "engine/api/options.h"
#include "engine/api/policies.h"
#include "engine/api/reads.h"
#include "engine/api/replicas.h"
#include "engine/api/search.h"
#include "engine/api/statistics.h"
#include "engine/api/streams.h"
#include "engine/api/sync_policy.h"
#include "engine/api/tables.h"
#include "engine/api/tags.h"
#include "engine/api/time_to_live.h"
#include "engine/api/transactions.h"
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/log_sink.h"

namespace ddbd {

class CommitObserver;  // engine/storage/change.h
class ItemLines;       // engine/api/item_lines.h
struct EngineState;    // engine/calls/engine_state.h: what the engine holds

class Engine {
 public:
  // `clock` must outlive the engine. Memory only: EngineOptions::db_path is not read.
  Engine(EngineOptions options, const Clock& clock);
  // With EngineOptions::db_path: locks the directory, replays its log, and logs every change
  // from then on. InternalServerError naming the file and offset for a corrupt log, or the lock
  // for a directory another process holds.
  static Result<std::unique_ptr<Engine>> Open(EngineOptions options, const Clock& clock);
  // A directory that holds the stores of several engines (--namespaces with --db-path): made if
  // missing and locked (its LOCK file) for as long as the returned handle lives, so a second
  // process is refused as Open refuses one; `entries` gets the names it holds.
  // InternalServerError naming the directory or the lock.
  using DirectoryLock = std::shared_ptr<const void>;
  static Result<DirectoryLock> LockDirectory(const std::string& path,
                                             std::vector<std::string>& entries);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ValidationException for an invalid schema; ResourceInUseException if the name is taken.
  // With GlobalTableSourceArn: a replica of another account's table (multi-account global
  // tables, engine/replicas/multi_account.h), its refusals ValidationException,
  // ResourceNotFoundException for a missing source, ResourceInUseException for a busy one.
  Result<TableOutcome> CreateTable(const CreateTableArgs& args);
  // ResourceNotFoundException if there is no such table.
  Result<TableDescription> DescribeTable(std::string_view table_name) const;
  ListTablesResult ListTables(const ListTablesArgs& args) const;
  // ValidationException for an invalid or empty update, ResourceNotFoundException,
  // ResourceInUseException while the table is not ACTIVE.
  // With ReplicaUpdates (global tables, engine/replicas/replica_updates.h): one replica created in
  // another region (its items copied there), updated or deleted, through
  // EngineOptions::replication; ValidationException and ResourceInUseException with DynamoDB's
  // texts for what it refuses.
  Result<TableOutcome> UpdateTable(const UpdateTableArgs& args);
  // ResourceNotFoundException, ResourceInUseException while CREATING, ValidationException when
  // deletion protection is enabled.
  Result<TableOutcome> DeleteTable(std::string_view table_name);

  // Item operations. All return ResourceNotFoundException "Requested resource not found" for a
  // missing table and ValidationException for an invalid key or an item over 400 KB. Each
  // reports the capacity it consumed when asked (ConsumedCapacity, engine/capacity/capacity.h),
  // and writes to a table with a local secondary index report their item collection's size when
  // asked.
  //
  // PutItem replaces the whole item; with a condition, the write happens only if it holds for
  // the current item (atomically), otherwise ConditionalCheckFailedException, carrying the
  // current item if `return_item_on_condition_failure`. ReturnValues ALL_OLD returns the item
  // replaced. ItemCollectionSizeLimitExceededException when the item's collection would pass
  // 10 GB.
  Result<WriteOutcome> PutItem(const PutItemArgs& args);
  // Removes the item with the key, if any; conditions and ALL_OLD as for PutItem.
  Result<WriteOutcome> DeleteItem(const DeleteItemArgs& args);
  // Applies the actions to the item with the key, creating it if absent (upsert) unless the
  // actions only remove. ValidationException for an update of a key attribute, an invalid path
  // or operand, or an item over 400 KB; conditions as for PutItem.
  Result<WriteOutcome> UpdateItem(const UpdateItemArgs& args);
  Result<GetItemOutcome> GetItem(const GetItemArgs& args) const;
  // One page of a Query (items of one partition, in sort-key order or reverse) or a Scan (the
  // table, or one parallel-scan segment, in partition-hash order). ResourceNotFoundException;
  // ValidationException for a key condition that does not fit the key schema, a filter on a key
  // attribute (Query), or an invalid ExclusiveStartKey.
  Result<ReadPage> Query(const QueryArgs& args) const;
  Result<ReadPage> Scan(const ScanArgs& args) const;
  // The TopK items of a vector index nearest `search_vector`, scored exactly (engine/vector/).
  // ResourceNotFoundException for a table that is not here; ValidationException for an index the
  // table lacks, a vector of another length, a condition on an attribute outside the index's
  // search schema or without its HASH attribute, or an index still backfilling.
  Result<SearchVectorsOutcome> SearchVectors(const SearchVectorsArgs& args) const;
  // The key attributes a read of `index_name` (empty: the table itself) goes by, without copying
  // the table's description (PartiQL plans each statement with them). ResourceNotFoundException
  // "Requested resource not found"; ValidationException "The table does not have the specified
  // index" (PartiQL's text names no index: behaviours-to-match D7).
  Result<ReadKeySchema> KeySchemaOf(std::string_view table_name, std::string_view index_name) const;
  // Checks every request (tables, keys, item sizes, duplicate keys) before applying any; then
  // each write stands alone.
  Result<BatchWriteItemOutcome> BatchWriteItem(const BatchWriteItemArgs& args);
  // The item for each request, in order (nullopt where there is none). Checks every key first.
  Result<BatchGetItemOutcome> BatchGetItem(const BatchGetItemArgs& args) const;

  // All of the actions, on any tables, or none: every condition is evaluated (none short-circuits
  // the others) with every item held, then every write is committed under the same write scope
  // (observers see one transaction id). ResourceNotFoundException for a missing table;
  // ValidationException "Transaction request cannot include multiple operations on one item";
  // TransactionCanceledException with a reason per action (ConditionalCheckFailed,
  // ValidationError for a bad key, item or update, ItemCollectionSizeLimitExceeded) otherwise.
  // With a ClientRequestToken: a repeat within 10 minutes of the first call's completion, with
  // the same parameters, applies nothing and reports read units; with other parameters
  // IdempotentParameterMismatchException; while the first still runs
  // TransactionInProgressException; a repeat of a failed call runs afresh.
  Result<TransactWriteItemsOutcome> TransactWriteItems(const TransactWriteItemsArgs& args);
  // The same, answering through `done`: at once, or with EngineOptions::transaction_hold_ms from
  // the engine's delay thread once the hold is over (meanwhile its items are held: other writes
  // to them get TransactionConflictException, other transactions a TransactionConflict reason).
  using TransactWriteDone = std::function<void(Result<TransactWriteItemsOutcome>)>;
  void TransactWriteItemsAsync(TransactWriteItemsArgs args, TransactWriteDone done);
  // The items, read together while every table named is held: one consistent view.
  Result<TransactGetItemsOutcome> TransactGetItems(const TransactGetItemsArgs& args) const;

  // Time to Live. UpdateTimeToLive: ResourceNotFoundException; ValidationException "TimeToLive is
  // active on a different AttributeName: ..." (enabling or disabling another attribute than the
  // one in use), "TimeToLive is already enabled" / "... already disabled", and, within
  // ttl_cooldown_ms of the last change, "Time to live has been modified multiple times within a
  // fixed interval". Enabling indexes the items already stored by expiry.
  Result<TimeToLiveOutcome> UpdateTimeToLive(const UpdateTimeToLiveArgs& args);
  Result<TimeToLiveDescription> DescribeTimeToLive(std::string_view table_name) const;
  // Tags on a table, named by its ARN (engine/tags/tag_operations.h). ValidationException "Invalid
  // TableArn..." for an ARN that is not a table's; ResourceNotFoundException "Requested resource
  // not found: ResourcArn: <arn> not found" for a table that is not here; ValidationException for
  // a key starting with "aws:" or more than 50 tags. A key tagged again takes the new value;
  // untagging a key the table does not have is not an error.
  Result<Ticket> TagResource(const TagResourceArgs& args);
  Result<Ticket> UntagResource(const UntagResourceArgs& args);
  Result<ListTagsOfResourceResult> ListTagsOfResource(const ListTagsOfResourceArgs& args) const;

  // Resource-based policies on a table or its stream (engine/policies/resource_policies.h),
  // stored with revision ids and never enforced. Put answers the revision id (the same one for
  // the same document), Delete the one it removed. ValidationException for an ARN that is not a
  // table's or its stream's here; ResourceNotFoundException for a table or stream that is not
  // here; PolicyNotFoundException when there is no policy or ExpectedRevisionId does not match.
  Result<PolicyOutcome> PutResourcePolicy(const PutResourcePolicyArgs& args);
  Result<ResourcePolicy> GetResourcePolicy(const std::string& resource_arn) const;
  Result<PolicyOutcome> DeleteResourcePolicy(const DeleteResourcePolicyArgs& args);

  // Kinesis streaming destinations (engine/kinesis/streaming_destinations.h): settings and their
  // statuses, kept across restarts; with EngineOptions::kinesis each enabled destination's records
  // are delivered (engine/kinesis/kinesis_delivery.h). ValidationException for a stream
  // ARN that is not a Kinesis stream's of this account and Region, and DynamoDB's "Table is not in
  // a valid state ..." texts for an enable while a destination is not DISABLED or ENABLE_FAILED, a
  // disable or update of one that is not ACTIVE; ResourceNotFoundException for a missing table.
  Result<KinesisDestinationOutcome> EnableKinesisStreamingDestination(
      const KinesisDestinationArgs& args);
  Result<KinesisDestinationOutcome> DisableKinesisStreamingDestination(
      const KinesisDestinationArgs& args);
  Result<KinesisDestinationOutcome> UpdateKinesisStreamingDestination(
      const KinesisDestinationArgs& args);
  Result<KinesisDestinations> DescribeKinesisStreamingDestination(
      const std::string& table_name) const;

  // Contributor Insights (engine/insights/insight_settings.h): the table's and each global
  // secondary index's setting, statuses and rule names, kept across restarts.
  // ResourceNotFoundException for a table that is not here or an index that is not one of its
  // global secondary indexes.
  Result<ContributorInsightsOutcome> UpdateContributorInsights(
      const UpdateContributorInsightsArgs& args);
  Result<ContributorInsightsDescription> DescribeContributorInsights(
      const std::string& table_name, const std::string& index_name) const;
  Result<ContributorInsightsList> ListContributorInsights(
      const ListContributorInsightsArgs& args) const;
  // What the table's enabled rules report now (engine/capacity/key_traffic.h): each resource's,
  // the table's first, with its heaviest `top` keys per rule; none when nothing is enabled.
  // ResourceNotFoundException for a table that is not here.
  Result<std::vector<ContributorInsightsReport>> ContributorInsightsReports(
      const std::string& table_name, size_t top) const;

  // Point-in-time recovery settings (engine/api/continuous_backups.h). TableNotFoundException
  // "Table not found: <name>" for a table that is not here.
  Result<ContinuousBackupsDescription> DescribeContinuousBackups(
      const std::string& table_name) const;
  Result<ContinuousBackupsOutcome> UpdateContinuousBackups(const UpdateContinuousBackupsArgs& args);

  // On-demand backups (engine/backups/on_demand_backups.h). CreateBackup: TableNotFoundException
  // "Table not found: <name>" for a missing or CREATING table; answers CREATING (the backup is
  // AVAILABLE at once). Describe and Delete: ValidationException "Invalid Backup ARN",
  // BackupNotFoundException. RestoreTableFromBackup: the new table (engine/backups/restore.h),
  // TableAlreadyExistsException for a name in use, ValidationException "Invalid Request: ..." for
  // overrides that do not fit.
  Result<BackupDetails> CreateBackup(const CreateBackupArgs& args);
  Result<BackupDescription> DescribeBackup(const std::string& backup_arn) const;
  Result<BackupDescription> DeleteBackup(const std::string& backup_arn);
  Result<ListBackupsResult> ListBackups(const ListBackupsArgs& args) const;
  Result<TableOutcome> RestoreTableFromBackup(const RestoreTableFromBackupArgs& args);
  // A new table holding the source's items as they were at a moment within its restorable window
  // (engine/backups/point_in_time.cc). TableNotFoundException for a missing source,
  // PointInTimeRecoveryUnavailableException when it has point-in-time recovery disabled,
  // InvalidRestoreTimeException for a moment outside the window, then as RestoreTableFromBackup.
  Result<TableOutcome> RestoreTableToPointInTime(const RestoreTableToPointInTimeArgs& args);

  // Exports (engine/exports/export_jobs.h): the table as it was at ExportTime (now if absent)
  // written into bucket S3Bucket in the background, DynamoDB's files and layout; the answer
  // describes it IN_PROGRESS. ValidationException for an ARN that is not a table's,
  // TableNotFoundException, PointInTimeRecoveryUnavailableException, InvalidExportTimeException for
  // a time outside the restorable window (EarliestRestorableDateTime to LatestRestorableDateTime),
  // ExportConflictException for a ClientToken used within 8 hours with other parameters (the
  // same parameters answer the first export). A bucket that is not there fails the export
  // (FAILED, S3NoSuchBucket), as in DynamoDB. DescribeExport: ValidationException "Invalid
  // Export ARN", ExportNotFoundException.
  Result<ExportDescription> ExportTableToPointInTime(const ExportTableArgs& args);
  Result<ExportDescription> DescribeExport(const std::string& export_arn) const;
  Result<ListExportsResult> ListExports(const ListExportsArgs& args) const;
  // Imports (engine/exports/import_jobs.h): a new table from the bucket's files, created at once
  // (CREATING: CreateTable's checks and errors, ResourceInUseException for a name in use) and
  // loaded in the background; the answer describes the import IN_PROGRESS. Lines that are not
  // items are counted (ErrorCount) and skipped. ImportConflictException for a ClientToken used
  // within 8 hours with other parameters; ValidationException for InputFormat ION or ZSTD (not
  // yet). DescribeImport: ValidationException "Invalid Import ARN", ImportNotFoundException.
  Result<ImportTableDescription> ImportTable(const ImportTableArgs& args);
  Result<ImportTableDescription> DescribeImport(const std::string& import_arn) const;
  Result<ListImportsResult> ListImports(const ListImportsArgs& args) const;
  void WaitForImports() const;
  // How exports write items and imports read them (protocol/item_lines.h). Call before the
  // first request.
  void UseItemLines(std::shared_ptr<const ItemLines> lines);
  // Returns once no export is waiting or running (tests, tools).
  void WaitForExports() const;

  // Deletes up to `max_items` items that are due (engine/storage/expiry_index.h) at the clock's
  // now, each a commit with origin kTimeToLive (indexes and streams follow, no capacity is
  // charged), in batches that hold a table for at most a few dozen deletes. Returns how many it
  // deleted. The sweeper thread calls it every ttl_interval_ms.
  size_t SweepExpiredItems(size_t max_items);

  // With a store: writes a checkpoint of every table while requests go on, then deletes the log
  // segments it replaces (engine/store/checkpoint.cc). Unless `always`, only when the log
  // has grown past checkpoint_log_bytes and the size of the items since the last one. Returns
  // whether it wrote one. The checkpointer thread calls it every 100 ms.
  Result<bool> Checkpoint(bool always);

  // The figures /metrics reports (engine/api/statistics.h): every table that is not being deleted,
  // in name order, and the store's. Takes each table's read lock in turn, never two at once.
  // Any thread.
  EngineStatistics Statistics() const;

  // DynamoDB Streams (the DynamoDBStreams_20120810 target). A table's stream records every
  // change that is not a no-op while StreamSpecification enables it; disabling it or deleting
  // the table closes it, readable for 24 hours more. ResourceNotFoundException for a stream or
  // shard that does not exist (or no longer does); ValidationException for a malformed ARN or
  // iterator; ExpiredIteratorException for an iterator over 15 minutes old;
  // TrimmedDataAccessException for records past retention or trimmed by stream_max_bytes.
  Result<ListStreamsResult> ListStreams(const ListStreamsArgs& args) const;
  Result<DescribeStreamResult> DescribeStream(const DescribeStreamArgs& args) const;
  Result<std::string> GetShardIterator(const GetShardIteratorArgs& args) const;
  Result<GetRecordsResult> GetRecords(const GetRecordsArgs& args) const;

  // Global tables, for the server's ReplicationLink (engine/api/replication_link.h). Apply: another
  // region's change, unless the item here has a later version (false: not applied, or the table
  // is not a replica here). SetReplicas: the table's replica set as another region announces it.
  // SetReplicaStatus: one member's status (ACTIVE once its copy is complete).
  Result<bool> ApplyReplicatedWrite(const ReplicatedWrite& write);
  // A table's auto scaling settings (engine/api/auto_scaling.h): kept, checked and described,
  // the same in every member; nothing scales. ResourceNotFoundException for a missing table;
  // ValidationException for an on-demand table, an index or region the table lacks, or units
  // out of order. SetReplicaAutoScaling: as another member sets them.
  Result<TableAutoScalingDescription> UpdateTableReplicaAutoScaling(
      const UpdateTableReplicaAutoScalingArgs& args);
  Result<TableAutoScalingDescription> DescribeTableReplicaAutoScaling(
      const std::string& table_name) const;
  Status SetReplicaAutoScaling(const std::string& table_name, TableAutoScaling settings);
  // Global tables of version 2017.11.29 (engine/api/legacy_global_tables.h), the other regions
  // reached through the link. TableNotFoundException for a region without the table;
  // GlobalTableAlreadyExistsException, GlobalTableNotFoundException,
  // ReplicaAlreadyExistsException, ReplicaNotFoundException; ValidationException for a region
  // outside the version's, or a table unlike the others or not empty. SetLegacyGlobalTable: the
  // membership another region sets. DescribeGlobalTableSettings and UpdateGlobalTableSettings:
  // every member's capacity settings (GlobalTableNotFoundException, ReplicaNotFoundException,
  // IndexNotFoundException; UpdateTable's refusals of the change in this region's table).
  Result<GlobalTableDescription> CreateGlobalTable(const CreateGlobalTableArgs& args);
  Result<GlobalTableDescription> UpdateGlobalTable(const UpdateGlobalTableArgs& args);
  Result<GlobalTableDescription> DescribeGlobalTable(const std::string& global_table_name) const;
  ListGlobalTablesResult ListGlobalTables(const ListGlobalTablesArgs& args) const;
  Result<GlobalTableSettingsDescription> DescribeGlobalTableSettings(
      const std::string& global_table_name) const;
  Result<GlobalTableSettingsDescription> UpdateGlobalTableSettings(
      const UpdateGlobalTableSettingsArgs& args);
  Status SetLegacyGlobalTable(const std::string& table_name, const std::vector<std::string>& group,
                              int64_t created_ms);
  Status SetReplicas(const std::string& table_name, std::vector<ReplicaDescription> replicas);
  Status SetReplicaStatus(const std::string& table_name, const std::string& region,
                          ReplicaStatus status);
  // Multi-account global tables: another account's new replica joins this table, whose set
  // becomes `replicas` (engine/replicas/multi_account.h AdmitReplica).
  Status AdmitReplica(const std::string& table_name,
                      const std::vector<ReplicaDescription>& replicas);
  // After a restart, to bring the regions level (server/replication.h Reconcile): the tables
  // with replicas here; a table's items' and deletions' write versions (the zero version for an
  // item written before the table had replicas); its items with `keys` queued for the member at
  // `member` (its address, MemberAddress) as they are now (deleted ones as deletions); each copy to
  // a new replica created from here that a stop cut short, queued again whole.
  std::vector<std::string> ReplicatedTables() const;
  ReplicaVersionList ReplicaVersions(const std::string& table_name) const;
  void ResendReplicaItems(const std::string& table_name, const std::string& member,
                          const std::vector<std::string>& keys);
  void ResumeReplicaCopies();

  // Adds an observer of every committed change (engine/storage/change.h). Call before the first
  // write, from the thread that made the engine; `observer` must outlive the engine.
  void Subscribe(CommitObserver* observer);

  // Persistence: whether changes are logged (Open with a db_path); and a call of `done` once the
  // change a write outcome's ticket names is durable (with the error if its record failed), from
  // the log's thread, or at once for a ticket of nothing. A write's answer waits for this.
  bool persistent() const;
  // With a store whose log cannot be written (a full disk): changes already made wait to be
  // logged, and new writes are refused (InternalServerError) until it can again; reads go on.
  bool log_failing() const;
  // Empty while the store takes writes; else why not ("write-ahead log: cannot write ...: No
  // space left on device"), for a health check.
  std::string StoreHealth() const;
  void WhenDurable(Ticket ticket, std::function<void(const Status&)> done);
  // The last record logged so far, by any thread (0: none, or no store): waiting for it waits
  // for everything logged before it (tests, tools).
  Ticket Logged() const;

  const EngineOptions& options() const { return options_; }
  std::string TableArn(std::string_view table_name) const;

 private:
  EngineOptions options_;
  const Clock& clock_;
  std::unique_ptr<EngineState> state_;
};

}  // namespace ddbd
