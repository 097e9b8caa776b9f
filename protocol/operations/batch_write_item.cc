#include <string>

#include "protocol/item_request.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxWrites = 25;

// DynamoDB quotes an over-long batch in Java's toString form; this renders the same envelope
// ("{table=[...]}") with the requests in brief.
std::string RenderWrites(const std::string& table_name, const json::Value& list) {
  std::string text = "{" + table_name + "=[";
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    if (i > 0) text += ", ";
    const bool put = list[i].IsObject() && json::Member(list[i], "PutRequest") != nullptr;
    text += put ? "WriteRequest(PutRequest=PutRequest(Item=...))"
                : "WriteRequest(DeleteRequest=DeleteRequest(Key=...))";
  }
  return text + "]}";
}

// The writes throttled, by table in request order, as the request gave them: a client sends
// UnprocessedItems back as the next call's RequestItems.
void EncodeUnprocessedItems(json::Writer& writer, const std::vector<WriteRequest>& requests,
                            const std::vector<size_t>& unprocessed) {
  writer.StartObject();
  for (size_t i = 0; i < unprocessed.size();) {
    const std::string& table_name = requests[unprocessed[i]].table_name;
    json::String(writer, table_name);
    writer.StartArray();
    for (; i < unprocessed.size() && requests[unprocessed[i]].table_name == table_name; ++i) {
      const WriteRequest& request = requests[unprocessed[i]];
      const bool put = request.kind == WriteRequest::Kind::kPut;
      writer.StartObject();
      writer.Key(put ? "PutRequest" : "DeleteRequest");
      writer.StartObject();
      writer.Key(put ? "Item" : "Key");
      EncodeItem(writer, request.item);
      writer.EndObject();
      writer.EndObject();
    }
    writer.EndArray();
  }
  writer.EndObject();
}

}  // namespace

Status BatchWriteItem(Engine& engine, const json::Value& request, json::Writer& response,
                      Ticket& ticket) {
  auto request_items = json::AsStructure(json::Member(request, "RequestItems"), "RequestItems");
  if (!request_items.ok()) return request_items.error();
  if (request_items.value() == nullptr || request_items.value()->ObjectEmpty()) {
    return Error::Validation("The requestItems parameter is required for BatchWriteItem");
  }
  ConstraintErrors errors;
  BatchWriteItemArgs args;
  if (Status capacity = DecodeWriteCapacityMembers(request, errors, args.return_consumed_capacity,
                                                   args.return_item_collection_metrics);
      !capacity.ok()) {
    return capacity;
  }
  AttributeDecoder decoder;
  std::vector<WriteRequest>& writes = args.requests;
  for (const auto& member : request_items.value()->GetObject()) {
    const std::string table_name(member.name.GetString(), member.name.GetStringLength());
    auto list = json::AsList(&member.value);
    if (!list.ok()) return list.error();
    if (list.value()->Empty() || list.value()->Size() > kMaxWrites) {
      errors.Add("'" + RenderWrites(table_name, *list.value()) + "'", "requestItems",
                 "Map value must satisfy constraint: [Member must have length less than or "
                 "equal to 25, Member must have length greater than or equal to 1]");
      continue;
    }
    for (const auto& element : list.value()->GetArray()) {
      auto write = json::AsListElementStructure(&element, "WriteRequest");
      if (!write.ok()) return write.error();
      auto put = json::AsStructure(json::Member(*write.value(), "PutRequest"), "PutRequest");
      if (!put.ok()) return put.error();
      auto remove =
          json::AsStructure(json::Member(*write.value(), "DeleteRequest"), "DeleteRequest");
      if (!remove.ok()) return remove.error();
      if ((put.value() == nullptr) == (remove.value() == nullptr)) {
        return Error::Validation(
            "Supplied WriteRequest must contain exactly one of PutRequest or DeleteRequest");
      }
      WriteRequest write_request;
      write_request.table_name = table_name;
      if (put.value() != nullptr) {
        const json::Value* item = json::Member(*put.value(), "Item");
        if (item == nullptr)
          errors.MustNotBeNull("requestItems." + table_name + ".member.putRequest.item");
        write_request.item = decoder.DecodeItem(item);
      } else {
        write_request.kind = WriteRequest::Kind::kDelete;
        const json::Value* key = json::Member(*remove.value(), "Key");
        if (key == nullptr)
          errors.MustNotBeNull("requestItems." + table_name + ".member.deleteRequest.key");
        write_request.item = decoder.DecodeItem(key);
      }
      writes.push_back(std::move(write_request));
    }
  }
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  if (writes.size() > kMaxWrites) {
    return Error::Validation("Too many items requested for the BatchWriteItem call");
  }
  auto outcome = engine.BatchWriteItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  response.StartObject();
  response.Key("UnprocessedItems");
  EncodeUnprocessedItems(response, args.requests, outcome.value().unprocessed);
  EncodeItemCollectionMetricsMember(response, outcome.value().item_collection_metrics);
  EncodeConsumedCapacityMember(response, outcome.value().consumed_capacity,
                               args.return_consumed_capacity);
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
