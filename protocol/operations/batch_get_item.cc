#include <algorithm>
#include <map>
#include <string>

#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxKeys = 100;

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
  auto request_items = json::AsStructure(json::Member(request, "RequestItems"), "RequestItems");
  if (!request_items.ok()) return request_items.error();
  if (request_items.value() == nullptr || request_items.value()->ObjectEmpty()) {
    return Error::Validation("The requestItems parameter is required for BatchGetItem");
  }
  ConstraintErrors errors;
  BatchGetItemArgs args;
  auto capacity = DecodeReturnConsumedCapacity(request, errors);
  if (!capacity.ok()) return capacity.error();
  args.return_consumed_capacity = capacity.value();
  AttributeDecoder decoder;
  std::vector<GetRequest>& gets = args.requests;
  std::vector<TableRead> tables;
  bool expression_projection = false;
  bool legacy_projection = false;
  for (const auto& member : request_items.value()->GetObject()) {
    TableRead table{std::string(member.name.GetString(), member.name.GetStringLength()),
                    gets.size(), 0, std::nullopt, nullptr};
    auto keys_and_attributes = json::AsStructure(&member.value, "KeysAndAttributes");
    if (!keys_and_attributes.ok()) return keys_and_attributes.error();
    const json::Value& block = *keys_and_attributes.value();
    table.block = &block;
    auto keys = json::AsList(json::Member(block, "Keys"));
    if (!keys.ok()) return keys.error();
    if (keys.value() == nullptr) {
      errors.MustNotBeNull("requestItems." + table.table_name + ".member.keys");
      continue;
    }
    if (keys.value()->Size() > kMaxKeys) {
      return Error::Validation("1 validation error detected: Value at 'RequestItems." +
                               table.table_name +
                               ".member.Keys' failed to satisfy constraint: Member must have "
                               "length less than or equal to 100");
    }
    auto consistent = json::AsBoolean(json::Member(block, "ConsistentRead"));
    if (!consistent.ok()) return consistent.error();
    for (const auto& key : keys.value()->GetArray()) {
      gets.push_back(
          {table.table_name, decoder.DecodeItem(&key), consistent.value().value_or(false)});
    }
    table.key_count = keys.value()->Size();
    expression_projection |= json::Member(block, "ProjectionExpression") != nullptr;
    legacy_projection |= json::Member(block, "AttributesToGet") != nullptr;
    auto projection = DecodeProjection(block);
    if (!projection.ok()) return projection.error();
    table.projection = std::move(projection).value();
    tables.push_back(std::move(table));
  }
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
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
