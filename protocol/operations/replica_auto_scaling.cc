// UpdateTableReplicaAutoScaling and DescribeTableReplicaAutoScaling: a global table's auto scaling
// settings, kept and described by the engine (engine/api/auto_scaling.h); nothing scales.
#include <string>
#include <utility>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

void EncodeAutoScaling(wire::out::TableAutoScalingDescription& out,
                       const TableAutoScalingDescription& table) {
  out.TableName(table.table_name);
  out.TableStatus(TableStatusOf(table.table_status));
  out.Replicas([&](wire::out::ReplicaAutoScalingDescriptionList& list) {
    for (const ReplicaAutoScalingDescription& replica : table.replicas) {
      list.Add([&](wire::out::ReplicaAutoScalingDescription& described) {
        described.RegionName(replica.region_name);
        described.GlobalSecondaryIndexes([&](auto& indexes) {
          for (const ReplicaAutoScalingDescription::Index& index : replica.indexes) {
            indexes.Add([&](wire::out::ReplicaGlobalSecondaryIndexAutoScalingDescription& entry) {
              entry.IndexName(index.index_name);
              entry.IndexStatus(IndexStatusOf(index.index_status));
              if (index.read) {
                entry.ProvisionedReadCapacityAutoScalingSettings(
                    [&](auto& settings) { EncodeAutoScalingSettings(settings, *index.read); });
              }
              if (index.write) {
                entry.ProvisionedWriteCapacityAutoScalingSettings(
                    [&](auto& settings) { EncodeAutoScalingSettings(settings, *index.write); });
              }
            });
          }
        });
        if (replica.read) {
          described.ReplicaProvisionedReadCapacityAutoScalingSettings(
              [&](auto& settings) { EncodeAutoScalingSettings(settings, *replica.read); });
        }
        if (replica.write) {
          described.ReplicaProvisionedWriteCapacityAutoScalingSettings(
              [&](auto& settings) { EncodeAutoScalingSettings(settings, *replica.write); });
        }
        described.ReplicaStatus(ReplicaStatusOf(replica.replica_status));
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
    args.write = AutoScalingUpdateOf(*in.provisioned_write_capacity_auto_scaling_update);
  }
  if (in.global_secondary_index_updates != nullptr) {
    for (const json::Value& element : in.global_secondary_index_updates->GetArray()) {
      wire::GlobalSecondaryIndexAutoScalingUpdate index;
      wire::View(element, index);
      if (index.provisioned_write_capacity_auto_scaling_update == nullptr) continue;
      args.index_writes.emplace_back(
          std::string(index.index_name.value_or("")),
          AutoScalingUpdateOf(*index.provisioned_write_capacity_auto_scaling_update));
    }
  }
  if (in.replica_updates != nullptr) {
    for (const json::Value& element : in.replica_updates->GetArray()) {
      wire::ReplicaAutoScalingUpdate replica;
      wire::View(element, replica);
      UpdateTableReplicaAutoScalingArgs::Region& region = args.regions.emplace_back();
      region.region_name = std::string(replica.region_name);
      if (replica.replica_provisioned_read_capacity_auto_scaling_update != nullptr) {
        region.read =
            AutoScalingUpdateOf(*replica.replica_provisioned_read_capacity_auto_scaling_update);
      }
      if (replica.replica_global_secondary_index_updates == nullptr) continue;
      for (const json::Value& entry : replica.replica_global_secondary_index_updates->GetArray()) {
        wire::ReplicaGlobalSecondaryIndexAutoScalingUpdate index;
        wire::View(entry, index);
        if (index.provisioned_read_capacity_auto_scaling_update == nullptr) continue;
        region.index_reads.emplace_back(
            std::string(index.index_name.value_or("")),
            AutoScalingUpdateOf(*index.provisioned_read_capacity_auto_scaling_update));
      }
    }
  }
  auto updated = engine.UpdateTableReplicaAutoScaling(args);
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  wire::Write<wire::out::UpdateTableReplicaAutoScalingOutput>(response, [&](auto& out) {
    out.TableAutoScalingDescription(
        [&](auto& described) { EncodeAutoScaling(described, updated.value()); });
  });
  return Ok{};
}

Status DescribeTableReplicaAutoScaling(Engine& engine,
                                       const wire::DescribeTableReplicaAutoScalingInput& in,
                                       json::Writer& response) {
  auto described = engine.DescribeTableReplicaAutoScaling(TableNameOf(engine, in.table_name));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeTableReplicaAutoScalingOutput>(response, [&](auto& out) {
    out.TableAutoScalingDescription(
        [&](auto& table) { EncodeAutoScaling(table, described.value()); });
  });
  return Ok{};
}

}  // namespace ddbd::operations
