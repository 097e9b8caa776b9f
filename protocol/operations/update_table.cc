#include <optional>
#include <string>

#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

// One GlobalSecondaryIndexUpdate: exactly one of Create, Update and Delete.
Result<GlobalSecondaryIndexUpdate> IndexUpdateOf(const json::Value& element) {
  using Action = GlobalSecondaryIndexUpdate::Action;
  wire::GlobalSecondaryIndexUpdate in;
  wire::View(element, in);
  const int given = (in.create != nullptr) + (in.update != nullptr) + (in.delete_ != nullptr);
  if (given != 1) {
    return Error::Validation(
        "One or more parameter values were invalid: Exactly one of Create, Update or Delete must "
        "be specified in a GlobalSecondaryIndexUpdate");
  }
  GlobalSecondaryIndexUpdate update;
  if (in.create != nullptr) {
    update.action = Action::kCreate;
    auto definition = IndexDefinitionOf(*in.create, true);
    if (!definition.ok()) return definition.error();
    update.index = std::move(definition).value();
  } else if (in.update != nullptr) {
    update.action = Action::kUpdate;
    wire::UpdateGlobalSecondaryIndexAction action;
    wire::View(*in.update, action);
    update.index.index_name = std::string(action.index_name);
    update.index.provisioned_throughput = ProvisionedThroughputOf(action.provisioned_throughput);
    update.index.on_demand_throughput = OnDemandThroughputOf(action.on_demand_throughput);
    update.index.warm_throughput = WarmThroughputOf(action.warm_throughput);
  } else {
    update.action = Action::kDelete;
    wire::DeleteGlobalSecondaryIndexAction action;
    wire::View(*in.delete_, action);
    update.index.index_name = std::string(action.index_name);
  }
  return update;
}

// One VectorIndexUpdate: exactly one of Create and Delete (the GlobalSecondaryIndexUpdate rule,
// in its wording).
Result<VectorIndexUpdate> VectorIndexUpdateOf(const json::Value& element) {
  wire::VectorIndexUpdate in;
  wire::View(element, in);
  if ((in.create != nullptr) == (in.delete_ != nullptr)) {
    return Error::Validation(
        "One or more parameter values were invalid: Exactly one of Create or Delete must be "
        "specified in a VectorIndexUpdate");
  }
  VectorIndexUpdate update;
  if (in.create != nullptr) {
    auto definition = VectorIndexOf(*in.create);
    if (!definition.ok()) return definition.error();
    update.index = std::move(definition).value();
  } else {
    update.action = VectorIndexUpdate::Action::kDelete;
    wire::DeleteVectorIndexAction action;
    wire::View(*in.delete_, action);
    update.index.index_name = std::string(action.index_name);
  }
  return update;
}

// The read capacity a replica (or one of its indexes) overrides: ProvisionedThroughputOverride's
// and OnDemandThroughputOverride's, where given.
template <typename Source>
void ReadOverridesOf(const Source& source, std::optional<int64_t>& read_capacity_units,
                     std::optional<int64_t>& max_read_request_units) {
  if (source.provisioned_throughput_override != nullptr) {
    wire::ProvisionedThroughputOverride override;
    wire::View(*source.provisioned_throughput_override, override);
    read_capacity_units = override.read_capacity_units;
  }
  if (source.on_demand_throughput_override != nullptr) {
    wire::OnDemandThroughputOverride override;
    wire::View(*source.on_demand_throughput_override, override);
    max_read_request_units = override.max_read_request_units;
  }
}

// A replica's overrides, as Create and Update give them.
template <typename Action>
ReplicaDescription ReplicaOf(const Action& action) {
  ReplicaDescription replica;
  replica.region_name = std::string(action.region_name);
  if (action.kms_master_key_id) replica.kms_master_key_id = std::string(*action.kms_master_key_id);
  ReadOverridesOf(action, replica.read_capacity_units_override,
                  replica.max_read_request_units_override);
  if (action.table_class_override) {
    replica.table_class_override = std::string(*action.table_class_override);
  }
  if (action.global_secondary_indexes != nullptr) {
    for (const json::Value& element : action.global_secondary_indexes->GetArray()) {
      wire::ReplicaGlobalSecondaryIndex index;
      wire::View(element, index);
      ReplicaIndexOverride& override = replica.index_overrides.emplace_back();
      override.index_name = std::string(index.index_name);
      ReadOverridesOf(index, override.read_capacity_units, override.max_read_request_units);
    }
  }
  return replica;
}

// One ReplicationGroupUpdate; how many actions it names is the engine's to judge (its texts).
ReplicaUpdate ReplicaUpdateOf(const json::Value& element) {
  wire::ReplicationGroupUpdate in;
  wire::View(element, in);
  ReplicaUpdate update;
  update.actions_given = (in.create != nullptr) + (in.update != nullptr) + (in.delete_ != nullptr);
  if (in.create != nullptr) {
    wire::CreateReplicationGroupMemberAction action;
    wire::View(*in.create, action);
    update.replica = ReplicaOf(action);
  } else if (in.update != nullptr) {
    update.action = ReplicaUpdate::Action::kUpdate;
    wire::UpdateReplicationGroupMemberAction action;
    wire::View(*in.update, action);
    update.replica = ReplicaOf(action);
  } else if (in.delete_ != nullptr) {
    update.action = ReplicaUpdate::Action::kDelete;
    wire::DeleteReplicationGroupMemberAction action;
    wire::View(*in.delete_, action);
    update.replica.region_name = std::string(action.region_name);
  }
  return update;
}

// One GlobalTableWitnessGroupUpdate; how many actions it names is the engine's to judge.
WitnessUpdate WitnessUpdateOf(const json::Value& element) {
  wire::GlobalTableWitnessGroupUpdate in;
  wire::View(element, in);
  WitnessUpdate update;
  update.actions_given = (in.create != nullptr) + (in.delete_ != nullptr);
  if (in.create != nullptr) {
    wire::CreateGlobalTableWitnessGroupMemberAction action;
    wire::View(*in.create, action);
    update.region_name = std::string(action.region_name);
  } else if (in.delete_ != nullptr) {
    update.action = WitnessUpdate::Action::kDelete;
    wire::DeleteGlobalTableWitnessGroupMemberAction action;
    wire::View(*in.delete_, action);
    update.region_name = std::string(action.region_name);
  }
  return update;
}

Result<UpdateTableArgs> DecodeUpdateTable(Engine& engine, const wire::UpdateTableInput& in) {
  UpdateTableArgs args;
  args.attribute_definitions = AttributeDefinitionsOf(in.attribute_definitions);
  args.table_name = TableNameOf(engine, in.table_name);
  // An empty list counts as absent, as in DynamoDB.
  if (in.global_secondary_index_updates != nullptr) {
    for (const json::Value& element : in.global_secondary_index_updates->GetArray()) {
      auto update = IndexUpdateOf(element);
      if (!update.ok()) return update.error();
      args.global_secondary_index_updates.push_back(std::move(update).value());
    }
  }
  if (in.vector_index_updates != nullptr) {
    for (const json::Value& element : in.vector_index_updates->GetArray()) {
      auto update = VectorIndexUpdateOf(element);
      if (!update.ok()) return update.error();
      args.vector_index_updates.push_back(std::move(update).value());
    }
  }
  if (in.replica_updates != nullptr) {
    for (const json::Value& element : in.replica_updates->GetArray()) {
      args.replica_updates.push_back(ReplicaUpdateOf(element));
    }
  }
  if (in.multi_region_consistency) {
    args.multi_region_consistency = *in.multi_region_consistency == "STRONG"
                                        ? MultiRegionConsistency::kStrong
                                        : MultiRegionConsistency::kEventual;
  }
  if (in.global_table_witness_updates != nullptr) {
    for (const json::Value& element : in.global_table_witness_updates->GetArray()) {
      args.witness_updates.push_back(WitnessUpdateOf(element));
    }
  }
  TableSettingsOf(in, args);
  args.other_updates_given =
      in.attribute_definitions != nullptr || in.billing_mode || in.provisioned_throughput ||
      in.global_secondary_index_updates != nullptr || in.stream_specification != nullptr ||
      in.sse_specification != nullptr || in.table_class || in.deletion_protection_enabled ||
      in.on_demand_throughput != nullptr || in.warm_throughput != nullptr ||
      in.vector_index_updates != nullptr || in.global_table_settings_replication_mode;
  return args;
}

}  // namespace

Status UpdateTable(Engine& engine, const wire::UpdateTableInput& in, json::Writer& response,
                   Ticket& ticket) {
  auto args = DecodeUpdateTable(engine, in);
  if (!args.ok()) return args.error();
  auto updated = engine.UpdateTable(args.value());
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  wire::Write<wire::out::UpdateTableOutput>(response, [&](auto& out) {
    out.TableDescription([&](wire::out::TableDescription& table) {
      EncodeTableDescription(table, updated.value(), engine.options());
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
