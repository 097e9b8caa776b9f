#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

// Decodes every member before reporting: DynamoDB lists all constraint failures at once.
Result<CreateTableArgs> DecodeCreateTable(const json::Value& request) {
  ConstraintErrors errors;
  CreateTableArgs args;
  auto definitions =
      DecodeAttributeDefinitions(json::Member(request, "AttributeDefinitions"), errors);
  if (!definitions.ok()) return definitions.error();
  args.attribute_definitions = std::move(definitions).value();
  auto name = DecodeNewTableName(request, errors);
  if (!name.ok()) return name.error();
  const bool has_name = name.value().has_value();
  args.table_name = std::move(name).value().value_or("");
  auto key_schema = DecodeKeySchema(json::Member(request, "KeySchema"), errors);
  if (!key_schema.ok()) return key_schema.error();
  args.key_schema = std::move(key_schema).value();
  auto local = DecodeIndexes(json::Member(request, "LocalSecondaryIndexes"), false, errors);
  if (!local.ok()) return local.error();
  args.local_secondary_indexes = std::move(local).value();
  auto global = DecodeIndexes(json::Member(request, "GlobalSecondaryIndexes"), true, errors);
  if (!global.ok()) return global.error();
  args.global_secondary_indexes = std::move(global).value();
  if (Status settings = DecodeTableSettings(request, errors, args); !settings.ok()) {
    return settings.error();
  }
  auto tags = DecodeTags(json::Member(request, "Tags"), errors);
  if (!tags.ok()) return tags.error();
  args.tags = std::move(tags).value();
  auto policy = json::AsString(json::Member(request, "ResourcePolicy"));
  if (!policy.ok()) return policy.error();
  if (policy.value()) args.resource_policy = std::string(*policy.value());
  if (!has_name) return RequiredParameterMissing("TableName");
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status CreateTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket) {
  auto args = DecodeCreateTable(request);
  if (!args.ok()) return args.error();
  auto created = engine.CreateTable(args.value());
  if (!created.ok()) return created.error();
  ticket = created.value().ticket;
  EncodeTableDescriptionResponse(response, "TableDescription", created.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
