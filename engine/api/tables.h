// What a table is: its key schema, attribute definitions, billing and the settings DynamoDB stores
// and describes. Plain values, no behaviour; engine/engine.h owns the live tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/auto_scaling.h"
#include "engine/api/contributor_insights.h"
#include "engine/api/durability.h"
#include "engine/api/kinesis.h"
#include "engine/api/replicas.h"
#include "engine/model/key_schema.h"

namespace ddbd {

enum class BillingMode { kProvisioned, kPayPerRequest };
enum class TableStatus { kCreating, kUpdating, kDeleting, kActive };
enum class TableClass { kStandard, kStandardInfrequentAccess };
enum class StreamViewType { kNewImage, kOldImage, kNewAndOldImages, kKeysOnly };
enum class SseType { kAes256, kKms };

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
};

// The most request units an on-demand table or global index may use per second; an absent member
// has no ceiling. On UpdateTable, -1 removes a member's ceiling.
// The reads and writes per second a table is ready for at once: stored and described, as
// nothing here is throttled by it.
struct WarmThroughput {
  int64_t read_units_per_second = 0;
  int64_t write_units_per_second = 0;
};

// WarmThroughput as CreateTable and UpdateTable take it: a member not given keeps the table's
// value (at creation: DynamoDB's initial on-demand throughput, or the provisioned capacity).
struct WarmThroughputRequest {
  std::optional<int64_t> read_units_per_second;
  std::optional<int64_t> write_units_per_second;
};

struct OnDemandThroughput {
  std::optional<int64_t> max_read_request_units;
  std::optional<int64_t> max_write_request_units;
  bool empty() const { return !max_read_request_units && !max_write_request_units; }
};

struct StreamSpecification {
  bool stream_enabled = false;
  std::optional<StreamViewType> stream_view_type;
};

struct SseSpecification {
  std::optional<bool> enabled;
  std::optional<SseType> sse_type;
  std::optional<std::string> kms_master_key_id;
};

struct Tag {
  std::string key;
  std::string value;
};

// A resource-based policy on a table or its stream: stored and returned, never enforced.
struct ResourcePolicy {
  std::string resource_arn;  // the table's, or its stream's
  std::string policy;        // the document as given
  std::string revision_id;
};

enum class ProjectionType { kAll, kKeysOnly, kInclude };

struct Projection {
  ProjectionType projection_type = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // INCLUDE only
  bool operator==(const Projection&) const = default;
};

// Where a restored table came from; described while its restore runs (TableStatus CREATING).
struct RestoreSummary {
  std::string source_backup_arn;  // RestoreTableFromBackup
  std::string source_table_arn;
  int64_t restore_date_time_ms = 0;  // the moment restored to: the backup's, or the point in time
  bool restore_in_progress = false;  // its items are still being loaded
};

// A secondary index as CreateTable defines it.
struct IndexDefinition {
  std::string index_name;
  std::vector<KeySchemaElement> key_schema;
  Projection projection;
  std::optional<ProvisionedThroughput> provisioned_throughput;          // global indexes only
  std::optional<OnDemandThroughput> on_demand_throughput;               // global indexes only
  std::optional<WarmThroughputRequest> warm_throughput = std::nullopt;  // global indexes
};

// A vector index (issue 41): the attribute holding each item's vector (a list of numbers of
// `dimensions` elements), how vectors are compared, and the search schema: at most one HASH
// attribute (a search names its value and reads only those items' vectors) and INLINE_FILTER
// attributes (a search may name their values). Schema attributes are declared in the table's
// AttributeDefinitions, like index keys.
// How vectors are compared (engine/vector/distance.h scores them).
enum class VectorDistanceFunction : uint8_t { kCosine, kEuclidean, kDotProduct };
struct SearchSchemaElement {
  enum class Type { kHash, kInlineFilter };
  std::string attribute_name;
  Type type = Type::kHash;
  bool operator==(const SearchSchemaElement&) const = default;
};
struct VectorIndexDefinition {
  std::string index_name;
  std::string vector_attribute;
  int64_t dimensions = 0;
  VectorDistanceFunction distance_function = VectorDistanceFunction::kCosine;
  std::vector<SearchSchemaElement> search_schema;
  Projection projection;
  bool operator==(const VectorIndexDefinition&) const = default;
  // The HASH attribute's name, or null.
  const std::string* hash_attribute() const {
    for (const SearchSchemaElement& element : search_schema) {
      if (element.type == SearchSchemaElement::Type::kHash) return &element.attribute_name;
    }
    return nullptr;
  }
};

// The settings both CreateTable and UpdateTable accept; absent means "not given".
struct TableSettings {
  std::optional<BillingMode> billing_mode;  // absent on create: PROVISIONED, but not described
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<StreamSpecification> stream_specification;
  std::optional<SseSpecification> sse_specification;
  std::optional<TableClass> table_class;
  std::optional<bool> deletion_protection_enabled;
  std::optional<WarmThroughputRequest> warm_throughput;
  std::optional<SettingsReplicationMode> settings_replication_mode;  // global tables
};

// Everything CreateTable accepts, after the protocol layer checked the request's shape.
struct CreateTableArgs : TableSettings {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::vector<Tag> tags;
  std::optional<std::string> resource_policy;
  std::vector<IndexDefinition> local_secondary_indexes;
  std::vector<IndexDefinition> global_secondary_indexes;
  std::vector<VectorIndexDefinition> vector_indexes;
  // Set by the engine's restores only: the table is created CREATING, to be filled.
  std::optional<RestoreSummary> restore;
  // Set by ImportTable only: the same, without a restore summary.
  bool importing = false;
  // Set by a ReplicationLink only: the table is a new replica, member of this replica set.
  std::vector<ReplicaDescription> replicas;
  // A replica in this account of another account's table (multi-account global tables,
  // engine/replicas/multi_account.h): its ARN. The table takes the source's schema, indexes and
  // shared settings; only the regional ones (tags, encryption, table class, deletion
  // protection, resource policy) may be given with it.
  std::optional<std::string> global_table_source_arn;
};

// One entry of UpdateTable's GlobalSecondaryIndexUpdates.
struct GlobalSecondaryIndexUpdate {
  enum class Action { kCreate, kUpdate, kDelete };
  Action action = Action::kCreate;
  // kCreate: the whole definition; kUpdate: the name and throughput; kDelete: the name.
  IndexDefinition index;
};

// One entry of UpdateTable's VectorIndexUpdates: a definition to create, or a name to delete.
struct VectorIndexUpdate {
  enum class Action { kCreate, kDelete };
  Action action = Action::kCreate;
  VectorIndexDefinition index;  // kDelete: the name only
};

struct UpdateTableArgs : TableSettings {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;  // for index creation
  std::vector<GlobalSecondaryIndexUpdate> global_secondary_index_updates;
  std::vector<VectorIndexUpdate> vector_index_updates;
  std::vector<ReplicaUpdate> replica_updates;  // global tables (engine/api/replicas.h)
  // Multi-region strong consistency: the mode of a global table being made, and its witness.
  std::optional<MultiRegionConsistency> multi_region_consistency;
  std::vector<WitnessUpdate> witness_updates;
  // Whether anything but the table's name and the replica updates was given: ReplicaUpdates must
  // come alone.
  bool other_updates_given = false;
  // Set by a ReplicationLink only: another member of the global table made this change, which
  // DynamoDB makes in every member; made here, it is not passed on again.
  bool from_replica = false;
};

struct ListTablesArgs {
  std::optional<std::string> exclusive_start_table_name;
  int limit = 100;
};

struct ListTablesResult {
  std::vector<std::string> table_names;
  std::optional<std::string> last_evaluated_table_name;
};

// An index in a table's description.
struct IndexDescription {
  IndexDefinition definition;
  bool is_global = false;
  size_t slot = 0;  // its place among the table's index trees, stable while it exists
  TableStatus index_status = TableStatus::kActive;  // global indexes: CREATING while backfilling
  bool backfilling = false;
  int64_t item_count = 0;
  int64_t index_size_bytes = 0;
  std::optional<WarmThroughput> warm_throughput;  // global indexes: once set or raised
};

// A vector index in a table's description.
struct VectorIndexDescription {
  VectorIndexDefinition definition;
  TableStatus index_status = TableStatus::kActive;
  // While CREATING: allocating, then backfilling (Backfilling true); searches are refused until it
  // is ACTIVE.
  bool backfilling = false;
  int64_t created_ms = 0;  // when UpdateTable added it (0: with the table)
  int64_t item_count = 0;
  int64_t index_size_bytes = 0;
};

// A snapshot of a table's description, as DescribeTable reports it. Times are epoch ms.
struct TableDescription {
  std::string table_name;
  std::string table_id;
  std::string table_arn;
  TableStatus table_status = TableStatus::kActive;
  int64_t creation_date_time_ms = 0;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  BillingMode billing_mode = BillingMode::kProvisioned;
  bool billing_mode_described = false;  // DynamoDB omits BillingModeSummary until it is set
  int64_t last_update_to_pay_per_request_ms = 0;
  ProvisionedThroughput provisioned_throughput;  // zeros under PAY_PER_REQUEST
  int64_t last_increase_date_time_ms = 0;        // 0: never
  int64_t last_decrease_date_time_ms = 0;        // 0: never
  int64_t number_of_decreases_today = 0;
  OnDemandThroughput on_demand_throughput;  // PAY_PER_REQUEST only; members set are ceilings
  std::optional<StreamSpecification> stream_specification;
  std::string latest_stream_label;                  // empty when no stream was ever enabled
  std::optional<SseSpecification> sse_description;  // present when SSE with KMS is enabled
  std::optional<TableClass> table_class;            // present once set explicitly
  int64_t table_class_last_update_ms = 0;
  bool deletion_protection_enabled = false;
  std::string time_to_live_attribute;   // empty: Time to Live disabled
  int64_t time_to_live_updated_ms = 0;  // the last UpdateTimeToLive (its cooldown); 0: never
  std::vector<Tag> tags;
  std::vector<ResourcePolicy> resource_policies;  // the table's and its streams', one each
  // Kinesis streaming destinations, enabled or once enabled (engine/kinesis/); regional.
  std::vector<KinesisDestination> kinesis_destinations;
  // Contributor Insights, for the table and its global indexes, enabled or once enabled
  // (engine/insights/); regional.
  std::vector<ContributorInsightsSetting> contributor_insights;
  std::optional<WarmThroughput> warm_throughput;  // once set, or kept when capacity changes
  int64_t point_in_time_recovery_since_ms = 0;    // 0: point-in-time recovery disabled
  int64_t recovery_period_in_days = 35;
  std::vector<IndexDescription> indexes;  // local first, in definition order, then global
  std::vector<VectorIndexDescription> vector_indexes;  // in definition order
  // A restored table's origin. While its restore is in progress the table is CREATING; a restart
  // that finds one unfinished drops the table, as if the restore had never begun.
  std::optional<RestoreSummary> restore_summary;
  // An imported table while its import runs (engine/exports/import_jobs.h): CREATING, and dropped
  // by a restart that finds it so, as an unfinished restore is. Not on the wire.
  bool import_in_progress = false;
  // A global table's members, this region among them, in the order they joined; empty: a table of
  // this region alone (no GlobalTableVersion, no Replicas).
  std::vector<ReplicaDescription> replicas;
  // A member of a global table of version 2017.11.29 (CreateGlobalTable) since this time (0:
  // not): `replicas` is its replication group, described by DescribeGlobalTable, not here.
  int64_t legacy_global_table_created_ms = 0;
  // GlobalTableSettingsReplicationMode as CreateTable or UpdateTable gave it (a multi-account
  // table's is ENABLED, a same-account global table's ENABLED_WITH_OVERRIDES, whatever this says).
  std::optional<SettingsReplicationMode> settings_replication_mode;
  // UpdateTableReplicaAutoScaling's settings (engine/api/auto_scaling.h); not on DescribeTable.
  TableAutoScaling auto_scaling;
  int64_t item_count = 0;
  int64_t table_size_bytes = 0;
};

// CreateTable's arguments for a new replica of `table` as a member of `replicas`: its schema,
// indexes and capacity; its stream (replication reads it); not what stays regional (tags,
// policies, encryption, deletion protection, point-in-time recovery). Time to Live and auto
// scaling follow the table's creation.
CreateTableArgs ReplicaTableArgs(const TableDescription& table,
                                 const std::vector<ReplicaDescription>& replicas);

// GlobalTableSettingsReplicationMode as DescribeTable answers it: ENABLED for a multi-account
// global table, ENABLED_WITH_OVERRIDES for a same-account one (the API reference: "set by default
// for a same account global table"), else what CreateTable or UpdateTable gave (none: absent).
std::optional<SettingsReplicationMode> SettingsReplicationModeOf(const TableDescription& table);

// What CreateTable, UpdateTable, DeleteTable and the restores return: the table as described,
// and the ticket of the change's log record, which the answer waits for.
struct TableOutcome : TableDescription {
  TableOutcome() = default;
  TableOutcome(TableDescription table, Ticket logged)
      : TableDescription(std::move(table)), ticket(logged) {}
  Ticket ticket;
};

// The WarmThroughput DynamoDB always describes: the table's, once set or raised by its capacity;
// otherwise 12,000/4,000 on demand, or the provisioned capacity. A global index's: 12,000/4,000 on
// demand, its provisioned capacity otherwise (defined in engine/catalog/table_validation.cc).
WarmThroughput CurrentWarmThroughput(const TableDescription& table);
WarmThroughput IndexWarmThroughput(BillingMode billing, const IndexDescription& index);

}  // namespace ddbd
