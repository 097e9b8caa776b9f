#include "protocol/table_encode.h"

#include <algorithm>
#include <string>
#include <type_traits>

namespace ddbd {

wire::StreamViewType StreamViewTypeOf(StreamViewType type) {
  switch (type) {
    case StreamViewType::kNewImage:
      return wire::StreamViewType::kNewImage;
    case StreamViewType::kOldImage:
      return wire::StreamViewType::kOldImage;
    case StreamViewType::kNewAndOldImages:
      return wire::StreamViewType::kNewAndOldImages;
    case StreamViewType::kKeysOnly:
      return wire::StreamViewType::kKeysOnly;
  }
  return wire::StreamViewType::kNewImage;
}

wire::BillingMode BillingModeOf(BillingMode mode) {
  return mode == BillingMode::kPayPerRequest ? wire::BillingMode::kPayPerRequest
                                             : wire::BillingMode::kProvisioned;
}

namespace {

wire::ScalarAttributeType TypeOf(ScalarAttributeType type) {
  switch (type) {
    case ScalarAttributeType::kS:
      return wire::ScalarAttributeType::kS;
    case ScalarAttributeType::kN:
      return wire::ScalarAttributeType::kN;
    case ScalarAttributeType::kB:
      return wire::ScalarAttributeType::kB;
  }
  return wire::ScalarAttributeType::kS;
}

wire::ProjectionType WireProjectionType(ProjectionType type) {
  switch (type) {
    case ProjectionType::kAll:
      return wire::ProjectionType::kAll;
    case ProjectionType::kKeysOnly:
      return wire::ProjectionType::kKeysOnly;
    case ProjectionType::kInclude:
      return wire::ProjectionType::kInclude;
  }
  return wire::ProjectionType::kAll;
}

// DynamoDB describes it on every table and global index; a change takes no time here (`Out`:
// the table's or an index's warm throughput, whose Status is of the table's or the index's
// kind).
template <class Out>
void EncodeWarmThroughput(Out& out, const WarmThroughput& warm) {
  out.ReadUnitsPerSecond(warm.read_units_per_second);
  out.WriteUnitsPerSecond(warm.write_units_per_second);
  if constexpr (std::is_same_v<Out, wire::out::TableWarmThroughputDescription>) {
    out.Status(wire::TableStatus::kActive);
  } else {
    out.Status(wire::IndexStatus::kActive);
  }
}

// The members both kinds of index description have, before and after a global index's own.
template <class Out>
void EncodeIndexHead(Out& out, const IndexDefinition& definition) {
  out.IndexName(definition.index_name);
  out.KeySchema([&](wire::out::KeySchema& list) { EncodeKeySchema(list, definition.key_schema); });
  out.Projection([&](wire::out::Projection& projection) {
    EncodeProjection(projection, definition.projection);
  });
}
template <class Out>
void EncodeIndexTail(Out& out, const IndexDescription& index, const TableDescription& table) {
  out.IndexSizeBytes(index.index_size_bytes);
  out.ItemCount(index.item_count);
  out.IndexArn(table.table_arn + "/index/" + index.definition.index_name);
}

void EncodeGlobalIndex(wire::out::GlobalSecondaryIndexDescription& out,
                       const IndexDescription& index, const TableDescription& table) {
  const IndexDefinition& definition = index.definition;
  EncodeIndexHead(out, definition);
  out.IndexStatus(IndexStatusOf(index.index_status));
  if (index.backfilling) out.Backfilling(true);
  const ProvisionedThroughput throughput =
      definition.provisioned_throughput.value_or(ProvisionedThroughput{});
  out.ProvisionedThroughput([&](wire::out::ProvisionedThroughputDescription& described) {
    described.NumberOfDecreasesToday(0);
    described.ReadCapacityUnits(throughput.read_capacity_units);
    described.WriteCapacityUnits(throughput.write_capacity_units);
  });
  // Present only when a ceiling is set (or, in UpdateTable's answer, just removed: -1).
  if (definition.on_demand_throughput && !definition.on_demand_throughput->empty()) {
    out.OnDemandThroughput([&](wire::out::OnDemandThroughput& ceilings) {
      EncodeOnDemandThroughput(ceilings, *definition.on_demand_throughput);
    });
  }
  out.WarmThroughput([&](wire::out::GlobalSecondaryIndexWarmThroughputDescription& warm) {
    EncodeWarmThroughput(warm, IndexWarmThroughput(table.billing_mode, index));
  });
  EncodeIndexTail(out, index, table);
}

void EncodeIndexes(wire::out::TableDescription& out, const TableDescription& table) {
  bool local = false;
  bool global = false;
  for (const IndexDescription& index : table.indexes) (index.is_global ? global : local) = true;
  if (local) {
    out.LocalSecondaryIndexes([&](wire::out::LocalSecondaryIndexDescriptionList& list) {
      for (const IndexDescription& index : table.indexes) {
        if (index.is_global) continue;
        list.Add([&](wire::out::LocalSecondaryIndexDescription& described) {
          EncodeIndexHead(described, index.definition);
          EncodeIndexTail(described, index, table);
        });
      }
    });
  }
  if (global) {
    out.GlobalSecondaryIndexes([&](wire::out::GlobalSecondaryIndexDescriptionList& list) {
      for (const IndexDescription& index : table.indexes) {
        if (!index.is_global) continue;
        list.Add([&](wire::out::GlobalSecondaryIndexDescription& described) {
          EncodeGlobalIndex(described, index, table);
        });
      }
    });
  }
}

static_assert(static_cast<int>(VectorDistanceFunction::kDotProduct) ==
              static_cast<int>(wire::VectorDistanceFunction::kDotProduct));

void EncodeVectorIndex(wire::out::VectorIndexDescription& out, const VectorIndexDescription& index,
                       const TableDescription& table) {
  const VectorIndexDefinition& definition = index.definition;
  EncodeVectorIndexDefinition(out, definition);
  out.IndexStatus(IndexStatusOf(index.index_status));
  if (index.backfilling) out.Backfilling(true);
  out.IndexSizeBytes(index.index_size_bytes);
  out.ItemCount(index.item_count);
  out.IndexArn(table.table_arn + "/index/" + definition.index_name);
}

void EncodeVectorIndexes(wire::out::TableDescription& out, const TableDescription& table) {
  if (table.vector_indexes.empty()) return;
  out.VectorIndexes([&](wire::out::VectorIndexDescriptionList& list) {
    for (const VectorIndexDescription& index : table.vector_indexes) {
      list.Add([&](wire::out::VectorIndexDescription& described) {
        EncodeVectorIndex(described, index, table);
      });
    }
  });
}

void EncodeThroughput(wire::out::ProvisionedThroughputDescription& out,
                      const TableDescription& table) {
  if (table.last_increase_date_time_ms > 0) {
    out.LastIncreaseDateTime(table.last_increase_date_time_ms);
  }
  if (table.last_decrease_date_time_ms > 0) {
    out.LastDecreaseDateTime(table.last_decrease_date_time_ms);
  }
  out.NumberOfDecreasesToday(table.number_of_decreases_today);
  out.ReadCapacityUnits(table.provisioned_throughput.read_capacity_units);
  out.WriteCapacityUnits(table.provisioned_throughput.write_capacity_units);
}

void EncodeStream(wire::out::TableDescription& out, const TableDescription& table) {
  if (table.stream_specification) {
    out.StreamSpecification([&](wire::out::StreamSpecification& stream) {
      EncodeStreamSpecification(stream, *table.stream_specification);
    });
  }
  if (!table.latest_stream_label.empty()) {
    out.LatestStreamLabel(table.latest_stream_label);
    out.LatestStreamArn(table.table_arn + "/stream/" + table.latest_stream_label);
  }
}

// A restored table's origin: described while it is CREATING, and in the restore's own answer.
void EncodeRestoreSummary(wire::out::RestoreSummary& out, const TableDescription& table) {
  const RestoreSummary& restore = *table.restore_summary;
  if (!restore.source_backup_arn.empty()) out.SourceBackupArn(restore.source_backup_arn);
  out.SourceTableArn(restore.source_table_arn);
  out.RestoreDateTime(restore.restore_date_time_ms);
  out.RestoreInProgress(table.table_status == TableStatus::kCreating);
}

// `whole`: DescribeTable's shape; otherwise DeleteTable's, which has no AttributeDefinitions,
// KeySchema, CreationDateTime or index lists.
// A global table's members (version 2019.11.21), this region among them.
void EncodeReplicas(wire::out::TableDescription& out, const TableDescription& table) {
  out.GlobalTableVersion("2019.11.21");
  out.Replicas([&](wire::out::ReplicaDescriptionList& list) {
    for (const ReplicaDescription& replica : table.replicas) {
      if (replica.witness) continue;  // GlobalTableWitnesses, below
      list.Add([&](wire::out::ReplicaDescription& described) {
        described.RegionName(replica.region_name);
        described.ReplicaStatus(ReplicaStatusOf(replica.status));
        if (!replica.account_id.empty()) {  // a multi-account global table's member
          described.ReplicaArn("arn:aws:dynamodb:" + replica.region_name + ":" +
                               replica.account_id + ":table/" + table.table_name);
          described.GlobalTableSettingsReplicationMode(
              wire::GlobalTableSettingsReplicationMode::kEnabled);
        }
        if (replica.kms_master_key_id) described.KMSMasterKeyId(*replica.kms_master_key_id);
        if (replica.read_capacity_units_override) {
          described.ProvisionedThroughputOverride([&](auto& override) {
            override.ReadCapacityUnits(*replica.read_capacity_units_override);
          });
        }
        if (replica.max_read_request_units_override) {
          described.OnDemandThroughputOverride([&](auto& override) {
            override.MaxReadRequestUnits(*replica.max_read_request_units_override);
          });
        }
        if (!replica.index_overrides.empty()) {
          described.GlobalSecondaryIndexes([&](auto& indexes) {
            for (const ReplicaIndexOverride& index : replica.index_overrides) {
              indexes.Add([&](auto& entry) {
                entry.IndexName(index.index_name);
                if (index.read_capacity_units) {
                  entry.ProvisionedThroughputOverride(
                      [&](auto& read) { read.ReadCapacityUnits(*index.read_capacity_units); });
                }
                if (index.max_read_request_units) {
                  entry.OnDemandThroughputOverride(
                      [&](auto& read) { read.MaxReadRequestUnits(*index.max_read_request_units); });
                }
              });
            }
          });
        }
        if (replica.table_class_override) {
          described.ReplicaTableClassSummary([&](wire::out::TableClassSummary& summary) {
            summary.TableClass(*replica.table_class_override == "STANDARD"
                                   ? wire::TableClass::kStandard
                                   : wire::TableClass::kStandardInfrequentAccess);
          });
        }
      });
    }
  });
  // Every member shares the mode (fixed when the global table was made).
  const bool strong = table.replicas.front().strong;
  out.MultiRegionConsistency(strong ? wire::MultiRegionConsistency::kStrong
                                    : wire::MultiRegionConsistency::kEventual);
  const bool witnessed =
      std::any_of(table.replicas.begin(), table.replicas.end(),
                  [](const ReplicaDescription& replica) { return replica.witness; });
  if (!witnessed) return;
  out.GlobalTableWitnesses([&](wire::out::GlobalTableWitnessDescriptionList& list) {
    for (const ReplicaDescription& replica : table.replicas) {
      if (!replica.witness) continue;
      list.Add([&](wire::out::GlobalTableWitnessDescription& witness) {
        witness.RegionName(replica.region_name);
        witness.WitnessStatus(
            replica.status == ReplicaStatus::kDeleting   ? wire::WitnessStatus::kDeleting
            : replica.status == ReplicaStatus::kCreating ? wire::WitnessStatus::kCreating
                                                         : wire::WitnessStatus::kActive);
      });
    }
  });
}

void EncodeDescription(wire::out::TableDescription& out, const TableDescription& table,
                       const EngineOptions& options, bool whole) {
  if (whole) {
    out.AttributeDefinitions([&](wire::out::AttributeDefinitions& list) {
      for (const AttributeDefinition& definition : table.attribute_definitions) {
        list.Add([&](wire::out::AttributeDefinition& described) {
          described.AttributeName(definition.attribute_name);
          described.AttributeType(TypeOf(definition.attribute_type));
        });
      }
    });
  }
  out.TableName(table.table_name);
  if (whole) {
    out.KeySchema([&](wire::out::KeySchema& list) { EncodeKeySchema(list, table.key_schema); });
  }
  out.TableStatus(TableStatusOf(table.table_status));
  if (whole) out.CreationDateTime(table.creation_date_time_ms);
  out.ProvisionedThroughput([&](wire::out::ProvisionedThroughputDescription& throughput) {
    EncodeThroughput(throughput, table);
  });
  out.TableSizeBytes(table.table_size_bytes);
  out.ItemCount(table.item_count);
  out.TableArn(table.table_arn);
  out.TableId(table.table_id);
  if (table.billing_mode_described) {
    out.BillingModeSummary([&](wire::out::BillingModeSummary& summary) {
      summary.BillingMode(BillingModeOf(table.billing_mode));
      if (table.last_update_to_pay_per_request_ms > 0) {
        summary.LastUpdateToPayPerRequestDateTime(table.last_update_to_pay_per_request_ms);
      }
    });
  }
  if (whole) EncodeIndexes(out, table);
  if (whole) EncodeVectorIndexes(out, table);
  EncodeStream(out, table);
  if (table.legacy_global_table_created_ms != 0) {
    out.GlobalTableVersion("2017.11.29");  // its group: DescribeGlobalTable's
  } else if (!table.replicas.empty()) {
    EncodeReplicas(out, table);
  }
  if (const auto mode = SettingsReplicationModeOf(table)) {
    out.GlobalTableSettingsReplicationMode(
        *mode == SettingsReplicationMode::kEnabled
            ? wire::GlobalTableSettingsReplicationMode::kEnabled
        : *mode == SettingsReplicationMode::kDisabled
            ? wire::GlobalTableSettingsReplicationMode::kDisabled
            : wire::GlobalTableSettingsReplicationMode::kEnabledWithOverrides);
  }
  if (table.sse_description) {
    out.SSEDescription(
        [&](wire::out::SSEDescription& sse) { EncodeSseDescription(sse, table, options); });
  }
  if (table.table_class) {
    out.TableClassSummary([&](wire::out::TableClassSummary& summary) {
      summary.TableClass(*table.table_class == TableClass::kStandard
                             ? wire::TableClass::kStandard
                             : wire::TableClass::kStandardInfrequentAccess);
      summary.LastUpdateDateTime(table.table_class_last_update_ms);
    });
  }
  if (table.restore_summary) {
    out.RestoreSummary(
        [&](wire::out::RestoreSummary& restore) { EncodeRestoreSummary(restore, table); });
  }
  out.DeletionProtectionEnabled(table.deletion_protection_enabled);
  // Present only when a ceiling is set (or, in UpdateTable's answer, just removed: -1).
  if (!table.on_demand_throughput.empty()) {
    out.OnDemandThroughput([&](wire::out::OnDemandThroughput& ceilings) {
      EncodeOnDemandThroughput(ceilings, table.on_demand_throughput);
    });
  }
  out.WarmThroughput([&](wire::out::TableWarmThroughputDescription& warm) {
    EncodeWarmThroughput(warm, CurrentWarmThroughput(table));
  });
}

}  // namespace

void EncodeTableDescription(wire::out::TableDescription& out, const TableDescription& table,
                            const EngineOptions& options) {
  EncodeDescription(out, table, options, true);
}

void EncodeDeletedTableDescription(wire::out::TableDescription& out, const TableDescription& table,
                                   const EngineOptions& options) {
  EncodeDescription(out, table, options, false);
}

void EncodeProjection(wire::out::Projection& out, const Projection& projection) {
  out.ProjectionType(WireProjectionType(projection.projection_type));
  if (!projection.non_key_attributes.empty()) {
    out.NonKeyAttributes([&](wire::out::NonKeyAttributeNameList& list) {
      for (const std::string& name : projection.non_key_attributes) list.Add(name);
    });
  }
}

void EncodeStreamSpecification(wire::out::StreamSpecification& out,
                               const StreamSpecification& stream) {
  out.StreamEnabled(true);
  out.StreamViewType(
      StreamViewTypeOf(stream.stream_view_type.value_or(StreamViewType::kNewAndOldImages)));
}

void EncodeSseDescription(wire::out::SSEDescription& out, const TableDescription& table,
                          const EngineOptions& options) {
  // Without a key of the caller's, DynamoDB uses the account's AWS managed key for DynamoDB.
  std::string key =
      table.sse_description->kms_master_key_id.value_or("00000000-0000-4000-8000-000000000000");
  if (!key.starts_with("arn:")) {
    key = "arn:aws:kms:" + options.region + ":" + options.account_id + ":key/" + key;
  }
  out.Status(wire::SSEStatus::kEnabled);
  out.SSEType(wire::SSEType::kKms);
  out.KMSMasterKeyArn(key);
}

void EncodeOnDemandThroughput(wire::out::OnDemandThroughput& out,
                              const OnDemandThroughput& throughput) {
  if (throughput.max_read_request_units) {
    out.MaxReadRequestUnits(*throughput.max_read_request_units);
  }
  if (throughput.max_write_request_units) {
    out.MaxWriteRequestUnits(*throughput.max_write_request_units);
  }
}

// The settings of one dimension, as AutoScalingSettingsDescription.
void EncodeAutoScalingSettings(wire::out::AutoScalingSettingsDescription& out,
                               const AutoScalingSettings& settings) {
  out.MinimumUnits(settings.minimum_units);
  out.MaximumUnits(settings.maximum_units);
  out.AutoScalingDisabled(settings.disabled);
  if (settings.role_arn) out.AutoScalingRoleArn(*settings.role_arn);
  out.ScalingPolicies([&](wire::out::AutoScalingPolicyDescriptionList& list) {
    for (const AutoScalingPolicy& policy : settings.policies) {
      list.Add([&](wire::out::AutoScalingPolicyDescription& described) {
        described.PolicyName(policy.policy_name);
        described.TargetTrackingScalingPolicyConfiguration([&](auto& target) {
          if (policy.disable_scale_in) target.DisableScaleIn(*policy.disable_scale_in);
          if (policy.scale_in_cooldown) target.ScaleInCooldown(*policy.scale_in_cooldown);
          if (policy.scale_out_cooldown) target.ScaleOutCooldown(*policy.scale_out_cooldown);
          target.TargetValue(policy.target_value);
        });
      });
    }
  });
}

wire::TableStatus TableStatusOf(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return wire::TableStatus::kCreating;
    case TableStatus::kUpdating:
      return wire::TableStatus::kUpdating;
    case TableStatus::kDeleting:
      return wire::TableStatus::kDeleting;
    case TableStatus::kActive:
      return wire::TableStatus::kActive;
  }
  return wire::TableStatus::kActive;
}

wire::IndexStatus IndexStatusOf(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return wire::IndexStatus::kCreating;
    case TableStatus::kUpdating:
      return wire::IndexStatus::kUpdating;
    case TableStatus::kDeleting:
      return wire::IndexStatus::kDeleting;
    case TableStatus::kActive:
      return wire::IndexStatus::kActive;
  }
  return wire::IndexStatus::kActive;
}

wire::ReplicaStatus ReplicaStatusOf(ReplicaStatus status) {
  switch (status) {
    case ReplicaStatus::kCreating:
      return wire::ReplicaStatus::kCreating;
    case ReplicaStatus::kUpdating:
      return wire::ReplicaStatus::kUpdating;
    case ReplicaStatus::kDeleting:
      return wire::ReplicaStatus::kDeleting;
    case ReplicaStatus::kActive:
      return wire::ReplicaStatus::kActive;
  }
  return wire::ReplicaStatus::kActive;
}

}  // namespace ddbd
