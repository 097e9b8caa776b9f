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
  wire::KeysAndAttributes block;  // as the request gave it, for UnprocessedKeys
};

// The keys throttled, by table, with the rest of the table's KeysAndAttributes as the request
// gave them: a client sends UnprocessedKeys back as the next call's RequestItems.
void EncodeUnprocessedKeys(wire::out::BatchGetRequestMap& out, const std::vector<TableRead>& tables,
                           const std::vector<GetRequest>& gets,
                           const std::vector<size_t>& unprocessed) {
  for (const TableRead& table : tables) {
    const size_t end = table.first_request + table.key_count;
    auto first = std::lower_bound(unprocessed.begin(), unprocessed.end(), table.first_request);
    if (first == unprocessed.end() || *first >= end) continue;
    const wire::KeysAndAttributes& block = table.block;
    out.Add(table.table_name, [&](wire::out::KeysAndAttributes& keys) {
      keys.Keys([&](json::Writer& writer) {
        writer.StartArray();
        for (auto it = first; it != unprocessed.end() && *it < end; ++it) {
          EncodeItem(writer, gets[*it].key);
        }
        writer.EndArray();
      });
      if (block.attributes_to_get != nullptr) {
        keys.AttributesToGet([&](wire::out::AttributeNameList& names) {
          for (const json::Value& name : block.attributes_to_get->GetArray()) {
            if (name.IsString()) names.Add({name.GetString(), name.GetStringLength()});
          }
        });
      }
      if (block.consistent_read) keys.ConsistentRead(*block.consistent_read);
      if (block.projection_expression) keys.ProjectionExpression(*block.projection_expression);
      if (block.expression_attribute_names != nullptr) {
        keys.ExpressionAttributeNames([&](wire::out::ExpressionAttributeNameMap& names) {
          for (const auto& name : block.expression_attribute_names->GetObject()) {
            if (!name.value.IsString()) continue;
            names.Add({name.name.GetString(), name.name.GetStringLength()},
                      {name.value.GetString(), name.value.GetStringLength()});
          }
        });
      }
    });
  }
}

}  // namespace

Status BatchGetItem(Engine& engine, const wire::BatchGetItemInput& in, const Status& constraints,
                    json::Writer& response) {
  BatchGetItemArgs args;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  AttributeDecoder decoder(in.kValueRules);
  std::vector<GetRequest>& gets = args.requests;
  std::vector<TableRead> tables;
  bool expression_projection = false;
  bool legacy_projection = false;
  const json::Value empty(rapidjson::kObjectType);
  for (const auto& member : (in.request_items != nullptr ? *in.request_items : empty).GetObject()) {
    if (member.value.IsNull()) continue;
    TableRead table{std::string(member.name.GetString(), member.name.GetStringLength()),
                    gets.size(),
                    0,
                    std::nullopt,
                    {}};
    wire::KeysAndAttributes& block = table.block;
    wire::View(member.value, block);
    if (block.keys == nullptr) continue;  // a constraint failure, answered below
    for (const auto& key : block.keys->GetArray()) {
      gets.push_back(
          {table.table_name, decoder.DecodeItem(&key), block.consistent_read.value_or(false)});
    }
    table.key_count = block.keys->Size();
    tables.push_back(std::move(table));
  }
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (!constraints.ok()) return constraints;
  // Each table's projection, before its keys' values are judged (DynamoDB's order).
  for (size_t i = 0; i < tables.size(); ++i) {
    const wire::KeysAndAttributes& block = tables[i].block;
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
  wire::Write<wire::out::BatchGetItemOutput>(response, [&](auto& out) {
    out.Responses([&](wire::out::BatchGetResponseMap& responses) {
      for (const TableRead& table : tables) {
        responses.Add(table.table_name, [&](json::Writer& items) {
          items.StartArray();
          for (size_t i = table.first_request; i < table.first_request + table.key_count; ++i) {
            const ReadItem& item = outcome.value().items[i];  // nothing if throttled
            if (item.found()) EncodeReadItem(items, item);
          }
          items.EndArray();
        });
      }
    });
    out.UnprocessedKeys([&](wire::out::BatchGetRequestMap& unprocessed) {
      EncodeUnprocessedKeys(unprocessed, tables, gets, outcome.value().unprocessed);
    });
    EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity,
                                 args.return_consumed_capacity);
  });
  return Ok{};
}

}  // namespace ddbd::operations
