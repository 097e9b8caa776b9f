#include <algorithm>
#include <map>
#include <string>

#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxKeys = 100;  // in all; each table's Keys are at most 100 by the model

struct TableRead {
  std::string table_name;
  size_t first_request = 0;  // index of its first key in the engine request list
  size_t key_count = 0;
  std::optional<std::vector<DocumentPath>> projection;
  const json::Value* block = nullptr;  // its KeysAndAttributes, for UnprocessedKeys
};

// The keys throttled, by table, with the rest of the table's KeysAndAttributes as the request
// gave them: a client sends UnprocessedKeys back as the next call's RequestItems.
void EncodeUnprocessedKeys(json::Writer& writer, const std::vector<TableRead>& tables,
                           const std::vector<GetRequest>& gets,
                           const std::vector<size_t>& unprocessed) {
  writer.StartObject();
  for (const TableRead& table : tables) {
    const size_t end = table.first_request + table.key_count;
    auto first = std::lower_bound(unprocessed.begin(), unprocessed.end(), table.first_request);
    if (first == unprocessed.end() || *first >= end) continue;
    json::String(writer, table.table_name);
    writer.StartObject();
    writer.Key("Keys");
    writer.StartArray();
    for (auto it = first; it != unprocessed.end() && *it < end; ++it) {
      EncodeItem(writer, gets[*it].key);
    }
    writer.EndArray();
    for (const auto& member : table.block->GetObject()) {
      if (std::string_view(member.name.GetString(), member.name.GetStringLength()) == "Keys") {
        continue;
      }
      writer.Key(member.name.GetString(), member.name.GetStringLength());
      member.value.Accept(writer);
    }
    writer.EndObject();
  }
  writer.EndObject();
}

}  // namespace

Status BatchGetItem(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::BatchGetItemInput in;
  Status constraints = Ok{};
  if (Status read = wire::Decode(request, in, &constraints); !read.ok()) return read;
  BatchGetItemArgs args;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  AttributeDecoder decoder;
  std::vector<GetRequest>& gets = args.requests;
  std::vector<TableRead> tables;
  bool expression_projection = false;
  bool legacy_projection = false;
  std::vector<wire::KeysAndAttributes> blocks;
  const json::Value empty(rapidjson::kObjectType);
  for (const auto& member : (in.request_items != nullptr ? *in.request_items : empty).GetObject()) {
    if (member.value.IsNull()) continue;
    TableRead table{std::string(member.name.GetString(), member.name.GetStringLength()),
                    gets.size(), 0, std::nullopt, &member.value};
    wire::KeysAndAttributes block;
    wire::View(member.value, block);
    if (block.keys == nullptr) continue;  // a constraint failure, answered below
    for (const auto& key : block.keys->GetArray()) {
      gets.push_back(
          {table.table_name, decoder.DecodeItem(&key), block.consistent_read.value_or(false)});
    }
    table.key_count = block.keys->Size();
    tables.push_back(std::move(table));
    blocks.push_back(block);
  }
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (!constraints.ok()) return constraints;
  // Each table's projection, before its keys' values are judged (DynamoDB's order).
  for (size_t i = 0; i < tables.size(); ++i) {
    const wire::KeysAndAttributes& block = blocks[i];
    expression_projection |= block.projection_expression.has_value();
    legacy_projection |= block.attributes_to_get != nullptr;
    auto projection = DecodeProjection(ProjectionMembersOf(block));
    if (!projection.ok()) return projection.error();
    tables[i].projection = std::move(projection).value();
  }
  if (Status values = decoder.validation_status(); !values.ok()) return values;
  if (expression_projection && legacy_projection) {
    return Error::Validation(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {AttributesToGet} Expression parameters: "
        "{ProjectionExpression}");
  }
  if (gets.size() > kMaxKeys) {
    return Error::Validation("Too many items requested for the BatchGetItem call");
  }
  for (const TableRead& table : tables) {
    if (!table.projection) continue;
    for (size_t i = table.first_request; i < table.first_request + table.key_count; ++i) {
      args.requests[i].projection = &*table.projection;
    }
  }
  auto outcome = engine.BatchGetItem(args);
  if (!outcome.ok()) return outcome.error();
  response.StartObject();
  response.Key("Responses");
  response.StartObject();
  for (const TableRead& table : tables) {
    json::String(response, table.table_name);
    response.StartArray();
    for (size_t i = table.first_request; i < table.first_request + table.key_count; ++i) {
      const ReadItem& item = outcome.value().items[i];  // nothing if throttled
      if (item.found()) EncodeReadItem(response, item);
    }
    response.EndArray();
  }
  response.EndObject();
  response.Key("UnprocessedKeys");
  EncodeUnprocessedKeys(response, tables, gets, outcome.value().unprocessed);
  EncodeConsumedCapacityMember(response, outcome.value().consumed_capacity,
                               args.return_consumed_capacity);
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
