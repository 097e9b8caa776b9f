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
  auto billing_mode = DecodeBillingMode(json::Member(request, "BillingMode"), errors);
  if (!billing_mode.ok()) return billing_mode.error();
  args.billing_mode = billing_mode.value();
  auto throughput =
      DecodeProvisionedThroughput(json::Member(request, "ProvisionedThroughput"), errors);
  if (!throughput.ok()) return throughput.error();
  args.provisioned_throughput = throughput.value();
  auto index_updates = json::AsList(json::Member(request, "GlobalSecondaryIndexUpdates"));
  if (!index_updates.ok()) return index_updates.error();
  // An empty list counts as absent, as in DynamoDB.
  args.has_global_secondary_index_updates =
      index_updates.value() != nullptr && !index_updates.value()->Empty();
  auto stream = DecodeStreamSpecification(json::Member(request, "StreamSpecification"), errors);
  if (!stream.ok()) return stream.error();
  args.stream_specification = stream.value();
  auto sse = DecodeSseSpecification(json::Member(request, "SSESpecification"), errors);
  if (!sse.ok()) return sse.error();
  args.sse_specification = sse.value();
  auto table_class = DecodeTableClass(json::Member(request, "TableClass"), errors);
  if (!table_class.ok()) return table_class.error();
  args.table_class = table_class.value();
  auto protection = json::AsBoolean(json::Member(request, "DeletionProtectionEnabled"));
  if (!protection.ok()) return protection.error();
  args.deletion_protection_enabled = protection.value();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status UpdateTable(Engine& engine, const json::Value& request, json::Writer& response) {
  auto args = DecodeUpdateTable(engine, request);
  if (!args.ok()) return args.error();
  auto updated = engine.UpdateTable(args.value());
  if (!updated.ok()) return updated.error();
  response.StartObject();
  response.Key("TableDescription");
  EncodeTableDescription(response, updated.value(), engine.options());
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
