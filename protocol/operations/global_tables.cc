// Global tables of version 2017.11.29: CreateGlobalTable, UpdateGlobalTable, DescribeGlobalTable
// and ListGlobalTables, over the engine's (engine/api/legacy_global_tables.h).
#include <string>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

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

}  // namespace ddbd::operations
