#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

Result<UpdateTableArgs> DecodeUpdateTable(Engine& engine, const json::Value& request) {
  ConstraintErrors errors;
  UpdateTableArgs args;
  // AttributeDefinitions only matter for index creation; type-check them all the same.
  auto definitions = json::AsList(json::Member(request, "AttributeDefinitions"));
  if (!definitions.ok()) return definitions.error();
  if (definitions.value() != nullptr) {
    auto decoded = DecodeAttributeDefinitions(definitions.value(), errors);
    if (!decoded.ok()) return decoded.error();
  }
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  args.table_name = std::move(name).value();
  auto index_updates = json::AsList(json::Member(request, "GlobalSecondaryIndexUpdates"));
  if (!index_updates.ok()) return index_updates.error();
  // An empty list counts as absent, as in DynamoDB.
  args.has_global_secondary_index_updates =
      index_updates.value() != nullptr && !index_updates.value()->Empty();
  if (Status settings = DecodeTableSettings(request, errors, args); !settings.ok()) {
    return settings.error();
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status UpdateTable(Engine& engine, const json::Value& request, json::Writer& response) {
  auto args = DecodeUpdateTable(engine, request);
  if (!args.ok()) return args.error();
  auto updated = engine.UpdateTable(args.value());
  if (!updated.ok()) return updated.error();
  EncodeTableDescriptionResponse(response, "TableDescription", updated.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
