// UpdateTableReplicaAutoScaling and DescribeTableReplicaAutoScaling: a global table's auto scaling
// settings, kept and described by the engine (engine/api/auto_scaling.h); nothing scales.
#include <string>
#include <utility>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

AutoScalingUpdate UpdateOf(const json::Value& element) {
  wire::AutoScalingSettingsUpdate in;
  wire::View(element, in);
  AutoScalingUpdate update;
  update.minimum_units = in.minimum_units;
  update.maximum_units = in.maximum_units;
  update.disabled = in.auto_scaling_disabled;
  if (in.auto_scaling_role_arn) update.role_arn = std::string(*in.auto_scaling_role_arn);
  if (in.scaling_policy_update != nullptr) {
    wire::AutoScalingPolicyUpdate policy_in;
    wire::View(*in.scaling_policy_update, policy_in);
    wire::AutoScalingTargetTrackingScalingPolicyConfigurationUpdate target;
    wire::View(*policy_in.target_tracking_scaling_policy_configuration, target);
    AutoScalingPolicy& policy = update.policy.emplace();
    if (policy_in.policy_name) policy.policy_name = std::string(*policy_in.policy_name);
    policy.disable_scale_in = target.disable_scale_in;
    policy.scale_in_cooldown = target.scale_in_cooldown;
    policy.scale_out_cooldown = target.scale_out_cooldown;
    policy.target_value = target.target_value;
  }
  return update;
}

// The settings of one dimension, as AutoScalingSettingsDescription.
void Encode(wire::out::AutoScalingSettingsDescription& out, const AutoScalingSettings& settings) {
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

// Both engine enums run CREATING, UPDATING, DELETING, ACTIVE.
constexpr wire::TableStatus kTableStatus[] = {
    wire::TableStatus::kCreating, wire::TableStatus::kUpdating, wire::TableStatus::kDeleting,
    wire::TableStatus::kActive};
constexpr wire::IndexStatus kIndexStatus[] = {
    wire::IndexStatus::kCreating, wire::IndexStatus::kUpdating, wire::IndexStatus::kDeleting,
    wire::IndexStatus::kActive};
constexpr wire::ReplicaStatus kReplicaStatus[] = {
    wire::ReplicaStatus::kCreating, wire::ReplicaStatus::kUpdating, wire::ReplicaStatus::kDeleting,
    wire::ReplicaStatus::kActive};

void Encode(wire::out::TableAutoScalingDescription& out, const TableAutoScalingDescription& table) {
  out.TableName(table.table_name);
  out.TableStatus(kTableStatus[static_cast<size_t>(table.table_status)]);
  out.Replicas([&](wire::out::ReplicaAutoScalingDescriptionList& list) {
    for (const ReplicaAutoScalingDescription& replica : table.replicas) {
      list.Add([&](wire::out::ReplicaAutoScalingDescription& described) {
        described.RegionName(replica.region_name);
        described.GlobalSecondaryIndexes([&](auto& indexes) {
          for (const ReplicaAutoScalingDescription::Index& index : replica.indexes) {
            indexes.Add([&](wire::out::ReplicaGlobalSecondaryIndexAutoScalingDescription& entry) {
              entry.IndexName(index.index_name);
              entry.IndexStatus(kIndexStatus[static_cast<size_t>(index.index_status)]);
              if (index.read) {
                entry.ProvisionedReadCapacityAutoScalingSettings(
                    [&](auto& settings) { Encode(settings, *index.read); });
              }
              if (index.write) {
                entry.ProvisionedWriteCapacityAutoScalingSettings(
                    [&](auto& settings) { Encode(settings, *index.write); });
              }
            });
          }
        });
        if (replica.read) {
          described.ReplicaProvisionedReadCapacityAutoScalingSettings(
              [&](auto& settings) { Encode(settings, *replica.read); });
        }
        if (replica.write) {
          described.ReplicaProvisionedWriteCapacityAutoScalingSettings(
              [&](auto& settings) { Encode(settings, *replica.write); });
        }
        described.ReplicaStatus(kReplicaStatus[static_cast<size_t>(replica.replica_status)]);
      });
    }
  });
}

}  // namespace

Status UpdateTableReplicaAutoScaling(Engine& engine,
                                     const wire::UpdateTableReplicaAutoScalingInput& in,
                                     json::Writer& response, Ticket& ticket) {
  UpdateTableReplicaAutoScalingArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  if (in.provisioned_write_capacity_auto_scaling_update != nullptr) {
    args.write = UpdateOf(*in.provisioned_write_capacity_auto_scaling_update);
  }
  if (in.global_secondary_index_updates != nullptr) {
    for (const json::Value& element : in.global_secondary_index_updates->GetArray()) {
      wire::GlobalSecondaryIndexAutoScalingUpdate index;
      wire::View(element, index);
      if (index.provisioned_write_capacity_auto_scaling_update == nullptr) continue;
      args.index_writes.emplace_back(
          std::string(index.index_name.value_or("")),
          UpdateOf(*index.provisioned_write_capacity_auto_scaling_update));
    }
  }
  if (in.replica_updates != nullptr) {
    for (const json::Value& element : in.replica_updates->GetArray()) {
      wire::ReplicaAutoScalingUpdate replica;
      wire::View(element, replica);
      UpdateTableReplicaAutoScalingArgs::Region& region = args.regions.emplace_back();
      region.region_name = std::string(replica.region_name);
      if (replica.replica_provisioned_read_capacity_auto_scaling_update != nullptr) {
        region.read = UpdateOf(*replica.replica_provisioned_read_capacity_auto_scaling_update);
      }
      if (replica.replica_global_secondary_index_updates == nullptr) continue;
      for (const json::Value& entry : replica.replica_global_secondary_index_updates->GetArray()) {
        wire::ReplicaGlobalSecondaryIndexAutoScalingUpdate index;
        wire::View(entry, index);
        if (index.provisioned_read_capacity_auto_scaling_update == nullptr) continue;
        region.index_reads.emplace_back(
            std::string(index.index_name.value_or("")),
            UpdateOf(*index.provisioned_read_capacity_auto_scaling_update));
      }
    }
  }
  auto updated = engine.UpdateTableReplicaAutoScaling(args);
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  wire::Write<wire::out::UpdateTableReplicaAutoScalingOutput>(response, [&](auto& out) {
    out.TableAutoScalingDescription([&](auto& described) { Encode(described, updated.value()); });
  });
  return Ok{};
}

Status DescribeTableReplicaAutoScaling(Engine& engine,
                                       const wire::DescribeTableReplicaAutoScalingInput& in,
                                       json::Writer& response) {
  auto described = engine.DescribeTableReplicaAutoScaling(TableNameOf(engine, in.table_name));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeTableReplicaAutoScalingOutput>(response, [&](auto& out) {
    out.TableAutoScalingDescription([&](auto& table) { Encode(table, described.value()); });
  });
  return Ok{};
}

}  // namespace ddbd::operations
