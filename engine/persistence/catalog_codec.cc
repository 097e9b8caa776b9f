#include "engine/persistence/catalog_codec.h"

#include <optional>
#include <utility>

#include "engine/persistence/auto_scaling_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/insights_codec.h"
#include "engine/persistence/kinesis_codec.h"
#include "engine/persistence/replica_codec.h"
#include "engine/persistence/vector_index_codec.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum Table : uint32_t {
  kName = 1,
  kId,
  kArn,
  kStatus,
  kCreated,
  kAttribute,
  kKey,
  kBillingMode,
  kBillingDescribed,
  kPayPerRequestSince,
  kProvisioned,
  kLastIncrease,
  kLastDecrease,
  kDecreasesToday,
  kOnDemand,
  kStream,
  kStreamLabel,
  kSse,
  kTableClass,
  kTableClassUpdated,
  kDeletionProtection,
  kTimeToLiveAttribute,
  kTimeToLiveUpdated,
  kTag,
  kIndex,
  kItemCount,
  kSizeBytes,
  kResourcePolicy,
  kPointInTimeRecoverySince,
  kRecoveryPeriodInDays,
  kWarmThroughput,
  kRestoreSummary,
  kVectorIndex,
  kImporting,
  kReplica,
  kAutoScaling,
  kLegacyGlobalTable,
  kSettingsReplicationMode,
  kKinesisDestination,
  kContributorInsights,
};
enum Restore : uint32_t { kRestoreBackupArn = 1, kRestoreTableArn, kRestoreMs, kRestoring };
enum Policy : uint32_t { kPolicyArn = 1, kPolicyDocument, kPolicyRevision };
enum Pair : uint32_t { kFirst = 1, kSecond };
enum Index : uint32_t {
  kIndexName = 1,
  kIndexKey,
  kProjectionType,
  kNonKey,
  kIndexProvisioned,
  kIndexOnDemand,
  kGlobal,
  kSlot,
  kIndexStatus,
  kBackfilling,
  kIndexItemCount,
  kIndexSizeBytes,
  kIndexWarm,
};
enum Optional : uint32_t { kPresent = 1, kValue, kType, kKmsKey };

std::string PairOf(std::string_view first, int64_t second) {
  FieldWriter fields;
  fields.Bytes(kFirst, first);
  fields.Int(kSecond, second);
  return fields.Take();
}

std::string ThroughputOf(const ProvisionedThroughput& throughput) {
  FieldWriter fields;
  fields.Int(kFirst, throughput.read_capacity_units);
  fields.Int(kSecond, throughput.write_capacity_units);
  return fields.Take();
}

std::string OnDemandOf(const OnDemandThroughput& throughput) {
  FieldWriter fields;
  if (throughput.max_read_request_units) fields.Int(kFirst, *throughput.max_read_request_units);
  if (throughput.max_write_request_units) {
    fields.Int(kSecond, *throughput.max_write_request_units);
  }
  return fields.Take();
}

std::string IndexOf(const IndexDescription& index) {
  FieldWriter fields;
  const IndexDefinition& definition = index.definition;
  fields.Bytes(kIndexName, definition.index_name);
  for (const KeySchemaElement& key : definition.key_schema) {
    fields.Bytes(kIndexKey, PairOf(key.attribute_name, static_cast<int64_t>(key.key_type)));
  }
  fields.Int(kProjectionType, static_cast<int64_t>(definition.projection.projection_type));
  for (const std::string& name : definition.projection.non_key_attributes) {
    fields.Bytes(kNonKey, name);
  }
  if (definition.provisioned_throughput) {
    fields.Bytes(kIndexProvisioned, ThroughputOf(*definition.provisioned_throughput));
  }
  if (definition.on_demand_throughput) {
    fields.Bytes(kIndexOnDemand, OnDemandOf(*definition.on_demand_throughput));
  }
  fields.Int(kGlobal, index.is_global ? 1 : 0);
  fields.Int(kSlot, static_cast<int64_t>(index.slot));
  fields.Int(kIndexStatus, static_cast<int64_t>(index.index_status));
  fields.Int(kBackfilling, index.backfilling ? 1 : 0);
  fields.Int(kIndexItemCount, index.item_count);
  fields.Int(kIndexSizeBytes, index.index_size_bytes);
  if (index.warm_throughput) {
    FieldWriter warm;
    warm.Int(kFirst, index.warm_throughput->read_units_per_second);
    warm.Int(kSecond, index.warm_throughput->write_units_per_second);
    fields.Bytes(kIndexWarm, warm.bytes());
  }
  return fields.Take();
}

// Decoding: every nested record read by one small function; any malformed one fails the table.
struct Decoder {
  bool ok = true;

  std::pair<std::string, int64_t> Pair(std::string_view bytes) {
    FieldReader fields(bytes);
    std::pair<std::string, int64_t> pair;
    while (fields.Next()) {
      if (fields.number() == kFirst) pair.first = std::string(fields.text());
      if (fields.number() == kSecond) pair.second = fields.integer();
    }
    ok = ok && fields.ok();
    return pair;
  }
  // Two integers under kFirst and kSecond, each absent unless written.
  std::pair<std::optional<int64_t>, std::optional<int64_t>> Ints(std::string_view bytes) {
    FieldReader fields(bytes);
    std::pair<std::optional<int64_t>, std::optional<int64_t>> ints;
    while (fields.Next()) {
      if (fields.number() == kFirst) ints.first = fields.integer();
      if (fields.number() == kSecond) ints.second = fields.integer();
    }
    ok = ok && fields.ok();
    return ints;
  }
  ProvisionedThroughput Throughput(std::string_view bytes) {
    const auto [read, write] = Ints(bytes);
    return {read.value_or(0), write.value_or(0)};
  }
  OnDemandThroughput OnDemand(std::string_view bytes) {
    const auto [read, write] = Ints(bytes);
    return {read, write};
  }
  KeySchemaElement Key(std::string_view bytes) {
    auto [name, type] = Pair(bytes);
    return {std::move(name), static_cast<KeyType>(type)};
  }
  IndexDescription Index(std::string_view bytes) {
    FieldReader fields(bytes);
    IndexDescription index;
    IndexDefinition& definition = index.definition;
    while (fields.Next()) {
      switch (fields.number()) {
        case kIndexName:
          definition.index_name = std::string(fields.text());
          break;
        case kIndexKey:
          definition.key_schema.push_back(Key(fields.text()));
          break;
        case kProjectionType:
          definition.projection.projection_type = static_cast<ProjectionType>(fields.integer());
          break;
        case kNonKey:
          definition.projection.non_key_attributes.emplace_back(fields.text());
          break;
        case kIndexProvisioned:
          definition.provisioned_throughput = Throughput(fields.text());
          break;
        case kIndexOnDemand:
          definition.on_demand_throughput = OnDemand(fields.text());
          break;
        case kGlobal:
          index.is_global = fields.integer() != 0;
          break;
        case kSlot:
          index.slot = static_cast<size_t>(fields.integer());
          break;
        case kIndexStatus:
          index.index_status = static_cast<TableStatus>(fields.integer());
          break;
        case kBackfilling:
          index.backfilling = fields.integer() != 0;
          break;
        case kIndexItemCount:
          index.item_count = fields.integer();
          break;
        case kIndexSizeBytes:
          index.index_size_bytes = fields.integer();
          break;
        case kIndexWarm: {
          const auto [read, write] = Ints(fields.text());
          index.warm_throughput = WarmThroughput{read.value_or(0), write.value_or(0)};
          break;
        }
        default:
          break;  // a later ddbd's field
      }
    }
    ok = ok && fields.ok();
    return index;
  }
};

std::string StreamOf(const StreamSpecification& stream) {
  FieldWriter fields;
  fields.Int(kPresent, stream.stream_enabled ? 1 : 0);
  if (stream.stream_view_type) fields.Int(kType, static_cast<int64_t>(*stream.stream_view_type));
  return fields.Take();
}

std::string SseOf(const SseSpecification& sse) {
  FieldWriter fields;
  if (sse.enabled) fields.Int(kValue, *sse.enabled ? 1 : 0);
  if (sse.sse_type) fields.Int(kType, static_cast<int64_t>(*sse.sse_type));
  if (sse.kms_master_key_id) fields.Bytes(kKmsKey, *sse.kms_master_key_id);
  return fields.Take();
}

}  // namespace

std::string EncodeTableDescription(const TableDescription& table) {
  FieldWriter fields;
  fields.Bytes(kName, table.table_name);
  fields.Bytes(kId, table.table_id);
  fields.Bytes(kArn, table.table_arn);
  fields.Int(kStatus, static_cast<int64_t>(table.table_status));
  fields.Int(kCreated, table.creation_date_time_ms);
  for (const AttributeDefinition& attribute : table.attribute_definitions) {
    fields.Bytes(kAttribute,
                 PairOf(attribute.attribute_name, static_cast<int64_t>(attribute.attribute_type)));
  }
  for (const KeySchemaElement& key : table.key_schema) {
    fields.Bytes(kKey, PairOf(key.attribute_name, static_cast<int64_t>(key.key_type)));
  }
  fields.Int(kBillingMode, static_cast<int64_t>(table.billing_mode));
  fields.Int(kBillingDescribed, table.billing_mode_described ? 1 : 0);
  fields.Int(kPayPerRequestSince, table.last_update_to_pay_per_request_ms);
  fields.Bytes(kProvisioned, ThroughputOf(table.provisioned_throughput));
  fields.Int(kLastIncrease, table.last_increase_date_time_ms);
  fields.Int(kLastDecrease, table.last_decrease_date_time_ms);
  fields.Int(kDecreasesToday, table.number_of_decreases_today);
  fields.Bytes(kOnDemand, OnDemandOf(table.on_demand_throughput));
  if (table.stream_specification) fields.Bytes(kStream, StreamOf(*table.stream_specification));
  fields.Bytes(kStreamLabel, table.latest_stream_label);
  if (table.sse_description) fields.Bytes(kSse, SseOf(*table.sse_description));
  if (table.table_class) fields.Int(kTableClass, static_cast<int64_t>(*table.table_class));
  fields.Int(kTableClassUpdated, table.table_class_last_update_ms);
  fields.Int(kDeletionProtection, table.deletion_protection_enabled ? 1 : 0);
  fields.Bytes(kTimeToLiveAttribute, table.time_to_live_attribute);
  fields.Int(kTimeToLiveUpdated, table.time_to_live_updated_ms);
  for (const Tag& tag : table.tags) {
    FieldWriter pair;
    pair.Bytes(kFirst, tag.key);
    pair.Bytes(kSecond, tag.value);
    fields.Bytes(kTag, pair.bytes());
  }
  for (const ResourcePolicy& policy : table.resource_policies) {
    FieldWriter nested;
    nested.Bytes(kPolicyArn, policy.resource_arn);
    nested.Bytes(kPolicyDocument, policy.policy);
    nested.Bytes(kPolicyRevision, policy.revision_id);
    fields.Bytes(kResourcePolicy, nested.bytes());
  }
  for (const KinesisDestination& destination : table.kinesis_destinations) {
    fields.Bytes(kKinesisDestination, EncodeKinesisDestination(destination));
  }
  for (const ContributorInsightsSetting& setting : table.contributor_insights) {
    fields.Bytes(kContributorInsights, EncodeContributorInsights(setting));
  }
  if (table.warm_throughput) {
    FieldWriter warm;
    warm.Int(kFirst, table.warm_throughput->read_units_per_second);
    warm.Int(kSecond, table.warm_throughput->write_units_per_second);
    fields.Bytes(kWarmThroughput, warm.bytes());
  }
  fields.Int(kPointInTimeRecoverySince, table.point_in_time_recovery_since_ms);
  fields.Int(kRecoveryPeriodInDays, table.recovery_period_in_days);
  if (table.restore_summary) {
    FieldWriter restore;
    restore.Bytes(kRestoreBackupArn, table.restore_summary->source_backup_arn);
    restore.Bytes(kRestoreTableArn, table.restore_summary->source_table_arn);
    restore.Int(kRestoreMs, table.restore_summary->restore_date_time_ms);
    restore.Int(kRestoring, table.restore_summary->restore_in_progress ? 1 : 0);
    fields.Bytes(kRestoreSummary, restore.bytes());
  }
  if (table.import_in_progress) fields.Int(kImporting, 1);
  for (const ReplicaDescription& replica : table.replicas)
    fields.Bytes(kReplica, EncodeReplica(replica));
  if (table.legacy_global_table_created_ms != 0) {
    fields.Int(kLegacyGlobalTable, table.legacy_global_table_created_ms);
  }
  if (table.settings_replication_mode) {
    fields.Int(kSettingsReplicationMode, static_cast<int64_t>(*table.settings_replication_mode));
  }
  if (!table.auto_scaling.empty()) {
    fields.Bytes(kAutoScaling, EncodeTableAutoScaling(table.auto_scaling));
  }
  for (const IndexDescription& index : table.indexes) fields.Bytes(kIndex, IndexOf(index));
  for (const VectorIndexDescription& index : table.vector_indexes) {
    fields.Bytes(kVectorIndex, EncodeVectorIndex(index));
  }
  fields.Int(kItemCount, table.item_count);
  fields.Int(kSizeBytes, table.table_size_bytes);
  return fields.Take();
}

Result<TableDescription> DecodeTableDescription(std::string_view bytes) {
  TableDescription table;
  Decoder decode;
  FieldReader fields(bytes);
  while (fields.Next()) {
    const std::string_view text = fields.text();
    const int64_t integer = fields.integer();
    switch (fields.number()) {
      case kName:
        table.table_name = std::string(text);
        break;
      case kId:
        table.table_id = std::string(text);
        break;
      case kArn:
        table.table_arn = std::string(text);
        break;
      case kStatus:
        table.table_status = static_cast<TableStatus>(integer);
        break;
      case kCreated:
        table.creation_date_time_ms = integer;
        break;
      case kAttribute: {
        auto [name, type] = decode.Pair(text);
        table.attribute_definitions.push_back(
            {std::move(name), static_cast<ScalarAttributeType>(type)});
        break;
      }
      case kKey:
        table.key_schema.push_back(decode.Key(text));
        break;
      case kBillingMode:
        table.billing_mode = static_cast<BillingMode>(integer);
        break;
      case kBillingDescribed:
        table.billing_mode_described = integer != 0;
        break;
      case kPayPerRequestSince:
        table.last_update_to_pay_per_request_ms = integer;
        break;
      case kProvisioned:
        table.provisioned_throughput = decode.Throughput(text);
        break;
      case kLastIncrease:
        table.last_increase_date_time_ms = integer;
        break;
      case kLastDecrease:
        table.last_decrease_date_time_ms = integer;
        break;
      case kDecreasesToday:
        table.number_of_decreases_today = integer;
        break;
      case kOnDemand:
        table.on_demand_throughput = decode.OnDemand(text);
        break;
      case kStream: {
        FieldReader stream(text);
        StreamSpecification specification;
        while (stream.Next()) {
          if (stream.number() == kPresent) specification.stream_enabled = stream.integer() != 0;
          if (stream.number() == kType) {
            specification.stream_view_type = static_cast<StreamViewType>(stream.integer());
          }
        }
        decode.ok = decode.ok && stream.ok();
        table.stream_specification = specification;
        break;
      }
      case kStreamLabel:
        table.latest_stream_label = std::string(text);
        break;
      case kSse: {
        FieldReader sse(text);
        SseSpecification specification;
        while (sse.Next()) {
          if (sse.number() == kValue) specification.enabled = sse.integer() != 0;
          if (sse.number() == kType) specification.sse_type = static_cast<SseType>(sse.integer());
          if (sse.number() == kKmsKey) specification.kms_master_key_id = std::string(sse.text());
        }
        decode.ok = decode.ok && sse.ok();
        table.sse_description = specification;
        break;
      }
      case kTableClass:
        table.table_class = static_cast<TableClass>(integer);
        break;
      case kTableClassUpdated:
        table.table_class_last_update_ms = integer;
        break;
      case kDeletionProtection:
        table.deletion_protection_enabled = integer != 0;
        break;
      case kTimeToLiveAttribute:
        table.time_to_live_attribute = std::string(text);
        break;
      case kTimeToLiveUpdated:
        table.time_to_live_updated_ms = integer;
        break;
      case kTag: {
        FieldReader pair(text);
        Tag tag;
        while (pair.Next()) {
          if (pair.number() == kFirst) tag.key = std::string(pair.text());
          if (pair.number() == kSecond) tag.value = std::string(pair.text());
        }
        decode.ok = decode.ok && pair.ok();
        table.tags.push_back(std::move(tag));
        break;
      }
      case kResourcePolicy: {
        FieldReader nested(text);
        ResourcePolicy& policy = table.resource_policies.emplace_back();
        while (nested.Next()) {
          if (nested.number() == kPolicyArn) policy.resource_arn = std::string(nested.text());
          if (nested.number() == kPolicyDocument) policy.policy = std::string(nested.text());
          if (nested.number() == kPolicyRevision) policy.revision_id = std::string(nested.text());
        }
        decode.ok = decode.ok && nested.ok();
        break;
      }
      case kKinesisDestination: {
        std::optional<KinesisDestination> destination = DecodeKinesisDestination(text);
        decode.ok = decode.ok && destination.has_value();
        if (destination) table.kinesis_destinations.push_back(std::move(*destination));
        break;
      }
      case kContributorInsights: {
        std::optional<ContributorInsightsSetting> setting = DecodeContributorInsights(text);
        decode.ok = decode.ok && setting.has_value();
        if (setting) table.contributor_insights.push_back(std::move(*setting));
        break;
      }
      case kWarmThroughput: {
        const auto [read, write] = decode.Ints(text);
        table.warm_throughput = WarmThroughput{read.value_or(0), write.value_or(0)};
        break;
      }
      case kPointInTimeRecoverySince:
        table.point_in_time_recovery_since_ms = integer;
        break;
      case kRecoveryPeriodInDays:
        table.recovery_period_in_days = integer;
        break;
      case kRestoreSummary: {
        RestoreSummary& restore = table.restore_summary.emplace();
        FieldReader nested(text);
        while (nested.Next()) {
          if (nested.number() == kRestoreBackupArn) restore.source_backup_arn = nested.text();
          if (nested.number() == kRestoreTableArn) restore.source_table_arn = nested.text();
          if (nested.number() == kRestoreMs) restore.restore_date_time_ms = nested.integer();
          if (nested.number() == kRestoring) restore.restore_in_progress = nested.integer() != 0;
        }
        break;
      }
      case kImporting:
        table.import_in_progress = integer != 0;
        break;
      case kReplica:
        table.replicas.push_back(DecodeReplica(text));
        break;
      case kLegacyGlobalTable:
        table.legacy_global_table_created_ms = integer;
        break;
      case kSettingsReplicationMode:
        if (integer >= 0 &&
            integer <= static_cast<int64_t>(SettingsReplicationMode::kEnabledWithOverrides)) {
          table.settings_replication_mode = static_cast<SettingsReplicationMode>(integer);
        }
        break;
      case kAutoScaling:
        table.auto_scaling = DecodeTableAutoScaling(text);
        break;
      case kIndex:
        table.indexes.push_back(decode.Index(text));
        break;
      case kVectorIndex: {
        std::optional<VectorIndexDescription> index = DecodeVectorIndex(text);
        decode.ok = decode.ok && index.has_value();
        if (index) table.vector_indexes.push_back(std::move(*index));
        break;
      }
      case kItemCount:
        table.item_count = integer;
        break;
      case kSizeBytes:
        table.table_size_bytes = integer;
        break;
      default:
        break;  // a later ddbd's field
    }
  }
  if (!fields.ok() || !decode.ok) return Error::Internal("malformed table description record");
  return table;
}

}  // namespace ddbd
