#include <optional>
#include <string>

#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

// One GlobalSecondaryIndexUpdate: exactly one of Create, Update and Delete.
Result<GlobalSecondaryIndexUpdate> DecodeIndexUpdate(const json::Value& element, size_t i,
                                                     ConstraintErrors& errors) {
  using Action = GlobalSecondaryIndexUpdate::Action;
  const std::string path = "globalSecondaryIndexUpdates." + std::to_string(i + 1) + ".member";
  struct Member {
    const char* name;
    const char* shape;
    const char* path;
    Action action;
  };
  std::optional<GlobalSecondaryIndexUpdate> decoded;
  int given = 0;
  for (const Member& member :
       {Member{"Create", "CreateGlobalSecondaryIndexAction", ".create", Action::kCreate},
        Member{"Update", "UpdateGlobalSecondaryIndexAction", ".update", Action::kUpdate},
        Member{"Delete", "DeleteGlobalSecondaryIndexAction", ".delete", Action::kDelete}}) {
    auto action = json::AsStructure(json::Member(element, member.name), member.shape);
    if (!action.ok()) return action.error();
    if (action.value() == nullptr) continue;
    ++given;
    GlobalSecondaryIndexUpdate update;
    update.action = member.action;
    const std::string action_path = path + member.path;
    if (member.action == Action::kCreate) {
      auto definition = DecodeIndexDefinition(*action.value(), action_path, true, errors);
      if (!definition.ok()) return definition.error();
      update.index = std::move(definition).value();
    } else {
      auto name = DecodeIndexName(*action.value(), action_path, errors);
      if (!name.ok()) return name.error();
      update.index.index_name = std::move(name).value();
      if (member.action == Action::kUpdate) {
        auto throughput = DecodeProvisionedThroughput(
            json::Member(*action.value(), "ProvisionedThroughput"), errors);
        if (!throughput.ok()) return throughput.error();
        update.index.provisioned_throughput = throughput.value();
        auto on_demand =
            DecodeOnDemandThroughput(json::Member(*action.value(), "OnDemandThroughput"));
        if (!on_demand.ok()) return on_demand.error();
        update.index.on_demand_throughput = on_demand.value();
        auto warm = DecodeWarmThroughput(json::Member(*action.value(), "WarmThroughput"));
        if (!warm.ok()) return warm.error();
        update.index.warm_throughput = warm.value();
      }
    }
    decoded = std::move(update);
  }
  if (given != 1) {
    return Error::Validation(
        "One or more parameter values were invalid: Exactly one of Create, Update or Delete must "
        "be specified in a GlobalSecondaryIndexUpdate");
  }
  return std::move(*decoded);
}

Result<UpdateTableArgs> DecodeUpdateTable(Engine& engine, const json::Value& request) {
  ConstraintErrors errors;
  UpdateTableArgs args;
  auto definitions = json::AsList(json::Member(request, "AttributeDefinitions"));
  if (!definitions.ok()) return definitions.error();
  if (definitions.value() != nullptr) {
    auto decoded = DecodeAttributeDefinitions(definitions.value(), errors);
    if (!decoded.ok()) return decoded.error();
    args.attribute_definitions = std::move(decoded).value();
  }
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  args.table_name = std::move(name).value();
  // An empty list counts as absent, as in DynamoDB.
  auto index_updates = json::AsList(json::Member(request, "GlobalSecondaryIndexUpdates"));
  if (!index_updates.ok()) return index_updates.error();
  if (index_updates.value() != nullptr) {
    for (rapidjson::SizeType i = 0; i < index_updates.value()->Size(); ++i) {
      auto element =
          json::AsListElementStructure(&(*index_updates.value())[i], "GlobalSecondaryIndexUpdate");
      if (!element.ok()) return element.error();
      auto update = DecodeIndexUpdate(*element.value(), i, errors);
      if (!update.ok()) return update.error();
      args.global_secondary_index_updates.push_back(std::move(update).value());
    }
  }
  if (Status settings = DecodeTableSettings(request, errors, args); !settings.ok()) {
    return settings.error();
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status UpdateTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket) {
  auto args = DecodeUpdateTable(engine, request);
  if (!args.ok()) return args.error();
  auto updated = engine.UpdateTable(args.value());
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  EncodeTableDescriptionResponse(response, "TableDescription", updated.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
