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
  for (const char* index_member : {"LocalSecondaryIndexes", "GlobalSecondaryIndexes"}) {
    auto indexes = json::AsList(json::Member(request, index_member));
    if (!indexes.ok()) return indexes.error();
    if (indexes.value() != nullptr) args.has_secondary_indexes = true;
  }
  auto billing_mode = DecodeBillingMode(json::Member(request, "BillingMode"), errors);
  if (!billing_mode.ok()) return billing_mode.error();
  args.billing_mode = billing_mode.value();
  auto throughput =
      DecodeProvisionedThroughput(json::Member(request, "ProvisionedThroughput"), errors);
  if (!throughput.ok()) return throughput.error();
  args.provisioned_throughput = throughput.value();
  auto stream = DecodeStreamSpecification(json::Member(request, "StreamSpecification"), errors);
  if (!stream.ok()) return stream.error();
  args.stream_specification = stream.value();
  auto sse = DecodeSseSpecification(json::Member(request, "SSESpecification"), errors);
  if (!sse.ok()) return sse.error();
  args.sse_specification = sse.value();
  auto tags = DecodeTags(json::Member(request, "Tags"), errors);
  if (!tags.ok()) return tags.error();
  args.tags = std::move(tags).value();
  auto table_class = DecodeTableClass(json::Member(request, "TableClass"), errors);
  if (!table_class.ok()) return table_class.error();
  args.table_class = table_class.value();
  auto protection = json::AsBoolean(json::Member(request, "DeletionProtectionEnabled"));
  if (!protection.ok()) return protection.error();
  args.deletion_protection_enabled = protection.value().value_or(false);
  if (!has_name) return RequiredParameterMissing("TableName");
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status CreateTable(Engine& engine, const json::Value& request, json::Writer& response) {
  auto args = DecodeCreateTable(request);
  if (!args.ok()) return args.error();
  auto created = engine.CreateTable(args.value());
  if (!created.ok()) return created.error();
  response.StartObject();
  response.Key("TableDescription");
  EncodeTableDescription(response, created.value(), engine.options());
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
