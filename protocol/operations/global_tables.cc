// Global tables of version 2017.11.29: CreateGlobalTable, UpdateGlobalTable, DescribeGlobalTable,
// ListGlobalTables, DescribeGlobalTableSettings and UpdateGlobalTableSettings, over the engine's
// (engine/api/legacy_global_tables.h).
#include <string>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

void Encode(wire::out::GlobalTableDescription& out, const GlobalTableDescription& table) {
  out.ReplicationGroup([&](wire::out::ReplicaDescriptionList& list) {
    for (const std::string& region : table.replication_group) {
      list.Add([&](wire::out::ReplicaDescription& replica) { replica.RegionName(region); });
    }
  });
  out.GlobalTableArn(table.global_table_arn);
  out.CreationDateTime(table.creation_date_time_ms);
  out.GlobalTableStatus(wire::GlobalTableStatus::kActive);  // changes are immediate here
  out.GlobalTableName(table.global_table_name);
}

std::string RegionOf(const json::Value& element) {
  wire::Replica replica;
  wire::View(element, replica);
  return std::string(replica.region_name.value_or(""));
}

void Encode(wire::out::ReplicaSettingsDescription& out, const ReplicaSettingsDescription& replica) {
  out.RegionName(replica.region_name);
  out.ReplicaStatus(ReplicaStatusOf(replica.replica_status));
  out.ReplicaBillingModeSummary([&](wire::out::BillingModeSummary& summary) {
    summary.BillingMode(BillingModeOf(replica.billing_mode));
    if (replica.last_update_to_pay_per_request_ms != 0) {
      summary.LastUpdateToPayPerRequestDateTime(replica.last_update_to_pay_per_request_ms);
    }
  });
  out.ReplicaProvisionedReadCapacityUnits(replica.provisioned_throughput.read_capacity_units);
  if (replica.read_auto_scaling) {
    out.ReplicaProvisionedReadCapacityAutoScalingSettings(
        [&](auto& settings) { EncodeAutoScalingSettings(settings, *replica.read_auto_scaling); });
  }
  out.ReplicaProvisionedWriteCapacityUnits(replica.provisioned_throughput.write_capacity_units);
  if (replica.write_auto_scaling) {
    out.ReplicaProvisionedWriteCapacityAutoScalingSettings(
        [&](auto& settings) { EncodeAutoScalingSettings(settings, *replica.write_auto_scaling); });
  }
  out.ReplicaGlobalSecondaryIndexSettings([&](auto& list) {
    for (const ReplicaSettingsDescription::Index& index : replica.indexes) {
      list.Add([&](wire::out::ReplicaGlobalSecondaryIndexSettingsDescription& entry) {
        entry.IndexName(index.index_name);
        entry.IndexStatus(IndexStatusOf(index.index_status));
        // PositiveLongObject: an on-demand table's indexes have no units to give.
        if (index.provisioned_throughput.read_capacity_units > 0) {
          entry.ProvisionedReadCapacityUnits(index.provisioned_throughput.read_capacity_units);
        }
        if (index.read_auto_scaling) {
          entry.ProvisionedReadCapacityAutoScalingSettings([&](auto& settings) {
            EncodeAutoScalingSettings(settings, *index.read_auto_scaling);
          });
        }
        if (index.provisioned_throughput.write_capacity_units > 0) {
          entry.ProvisionedWriteCapacityUnits(index.provisioned_throughput.write_capacity_units);
        }
        if (index.write_auto_scaling) {
          entry.ProvisionedWriteCapacityAutoScalingSettings([&](auto& settings) {
            EncodeAutoScalingSettings(settings, *index.write_auto_scaling);
          });
        }
      });
    }
  });
  if (replica.table_class) {
    out.ReplicaTableClassSummary([&](wire::out::TableClassSummary& summary) {
      summary.TableClass(*replica.table_class == TableClass::kStandard
                             ? wire::TableClass::kStandard
                             : wire::TableClass::kStandardInfrequentAccess);
      summary.LastUpdateDateTime(replica.table_class_last_update_ms);
    });
  }
}

template <class Output>
void WriteSettings(json::Writer& response, const GlobalTableSettingsDescription& settings) {
  wire::Write<Output>(response, [&](auto& out) {
    out.GlobalTableName(settings.global_table_name);
    out.ReplicaSettings([&](wire::out::ReplicaSettingsDescriptionList& list) {
      for (const ReplicaSettingsDescription& replica : settings.replica_settings) {
        list.Add(
            [&](wire::out::ReplicaSettingsDescription& described) { Encode(described, replica); });
      }
    });
  });
}

}  // namespace

Status CreateGlobalTable(Engine& engine, const wire::CreateGlobalTableInput& in,
                         json::Writer& response, Ticket& ticket) {
  CreateGlobalTableArgs args;
  args.global_table_name = std::string(in.global_table_name);
  for (const json::Value& element : in.replication_group->GetArray()) {
    args.replication_group.push_back(RegionOf(element));
  }
  auto created = engine.CreateGlobalTable(args);
  if (!created.ok()) return created.error();
  ticket = created.value().ticket;
  wire::Write<wire::out::CreateGlobalTableOutput>(response, [&](auto& out) {
    out.GlobalTableDescription([&](auto& described) { Encode(described, created.value()); });
  });
  return Ok{};
}

Status UpdateGlobalTable(Engine& engine, const wire::UpdateGlobalTableInput& in,
                         json::Writer& response, Ticket& ticket) {
  UpdateGlobalTableArgs args;
  args.global_table_name = std::string(in.global_table_name);
  for (const json::Value& element : in.replica_updates->GetArray()) {
    wire::ReplicaUpdate given;
    wire::View(element, given);
    UpdateGlobalTableArgs::Update& update = args.replica_updates.emplace_back();
    if (given.create != nullptr) {
      wire::CreateReplicaAction action;
      wire::View(*given.create, action);
      update.create = std::string(action.region_name);
    }
    if (given.delete_ != nullptr) {
      wire::DeleteReplicaAction action;
      wire::View(*given.delete_, action);
      update.remove = std::string(action.region_name);
    }
  }
  auto updated = engine.UpdateGlobalTable(args);
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  wire::Write<wire::out::UpdateGlobalTableOutput>(response, [&](auto& out) {
    out.GlobalTableDescription([&](auto& described) { Encode(described, updated.value()); });
  });
  return Ok{};
}

Status DescribeGlobalTable(Engine& engine, const wire::DescribeGlobalTableInput& in,
                           json::Writer& response) {
  auto described = engine.DescribeGlobalTable(std::string(in.global_table_name));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeGlobalTableOutput>(response, [&](auto& out) {
    out.GlobalTableDescription([&](auto& table) { Encode(table, described.value()); });
  });
  return Ok{};
}

Status ListGlobalTables(Engine& engine, const wire::ListGlobalTablesInput& in,
                        json::Writer& response) {
  ListGlobalTablesArgs args;
  if (in.exclusive_start_global_table_name) {
    args.exclusive_start_global_table_name = std::string(*in.exclusive_start_global_table_name);
  }
  args.limit = in.limit;
  if (in.region_name) args.region_name = std::string(*in.region_name);
  const ListGlobalTablesResult listed = engine.ListGlobalTables(args);
  wire::Write<wire::out::ListGlobalTablesOutput>(response, [&](auto& out) {
    out.GlobalTables([&](auto& list) {
      // Not a structured binding: clang 14 (the fuzz build) refuses one captured by a lambda.
      for (const auto& global_table : listed.global_tables) {
        list.Add([&](wire::out::GlobalTable& table) {
          table.GlobalTableName(global_table.first);
          table.ReplicationGroup([&](wire::out::ReplicaList& replicas) {
            for (const std::string& region : global_table.second) {
              replicas.Add([&](wire::out::Replica& replica) { replica.RegionName(region); });
            }
          });
        });
      }
    });
    if (listed.last_evaluated_global_table_name) {
      out.LastEvaluatedGlobalTableName(*listed.last_evaluated_global_table_name);
    }
  });
  return Ok{};
}

Status DescribeGlobalTableSettings(Engine& engine, const wire::DescribeGlobalTableSettingsInput& in,
                                   json::Writer& response) {
  auto described = engine.DescribeGlobalTableSettings(std::string(in.global_table_name));
  if (!described.ok()) return described.error();
  WriteSettings<wire::out::DescribeGlobalTableSettingsOutput>(response, described.value());
  return Ok{};
}

Status UpdateGlobalTableSettings(Engine& engine, const wire::UpdateGlobalTableSettingsInput& in,
                                 json::Writer& response, Ticket& ticket) {
  UpdateGlobalTableSettingsArgs args;
  args.global_table_name = std::string(in.global_table_name);
  args.billing_mode = BillingModeOf(in.global_table_billing_mode);
  args.write_capacity_units = in.global_table_provisioned_write_capacity_units;
  if (in.global_table_provisioned_write_capacity_auto_scaling_settings_update != nullptr) {
    args.write_auto_scaling = AutoScalingUpdateOf(
        *in.global_table_provisioned_write_capacity_auto_scaling_settings_update);
  }
  if (in.global_table_global_secondary_index_settings_update != nullptr) {
    for (const json::Value& element :
         in.global_table_global_secondary_index_settings_update->GetArray()) {
      wire::GlobalTableGlobalSecondaryIndexSettingsUpdate given;
      wire::View(element, given);
      UpdateGlobalTableSettingsArgs::IndexWrites& index = args.indexes.emplace_back();
      index.index_name = std::string(given.index_name);
      index.write_capacity_units = given.provisioned_write_capacity_units;
      if (given.provisioned_write_capacity_auto_scaling_settings_update != nullptr) {
        index.write_auto_scaling =
            AutoScalingUpdateOf(*given.provisioned_write_capacity_auto_scaling_settings_update);
      }
    }
  }
  if (in.replica_settings_update != nullptr) {
    for (const json::Value& element : in.replica_settings_update->GetArray()) {
      wire::ReplicaSettingsUpdate given;
      wire::View(element, given);
      UpdateGlobalTableSettingsArgs::Replica& replica = args.replicas.emplace_back();
      replica.region_name = std::string(given.region_name);
      replica.read_capacity_units = given.replica_provisioned_read_capacity_units;
      if (given.replica_provisioned_read_capacity_auto_scaling_settings_update != nullptr) {
        replica.read_auto_scaling = AutoScalingUpdateOf(
            *given.replica_provisioned_read_capacity_auto_scaling_settings_update);
      }
      replica.table_class = TableClassOf(given.replica_table_class);
      if (given.replica_global_secondary_index_settings_update == nullptr) continue;
      for (const json::Value& entry :
           given.replica_global_secondary_index_settings_update->GetArray()) {
        wire::ReplicaGlobalSecondaryIndexSettingsUpdate index_given;
        wire::View(entry, index_given);
        UpdateGlobalTableSettingsArgs::IndexReads& index = replica.indexes.emplace_back();
        index.index_name = std::string(index_given.index_name);
        index.read_capacity_units = index_given.provisioned_read_capacity_units;
        if (index_given.provisioned_read_capacity_auto_scaling_settings_update != nullptr) {
          index.read_auto_scaling = AutoScalingUpdateOf(
              *index_given.provisioned_read_capacity_auto_scaling_settings_update);
        }
      }
    }
  }
  auto updated = engine.UpdateGlobalTableSettings(args);
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  WriteSettings<wire::out::UpdateGlobalTableSettingsOutput>(response, updated.value());
  return Ok{};
}

}  // namespace ddbd::operations
