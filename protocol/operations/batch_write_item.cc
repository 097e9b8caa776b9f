#include <string>

#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxWrites = 25;

// The writes throttled, by table in request order, as the request gave them: a client sends
// UnprocessedItems back as the next call's RequestItems.
void EncodeUnprocessedItems(wire::out::BatchWriteItemRequestMap& out,
                            const std::vector<WriteRequest>& requests,
                            const std::vector<size_t>& unprocessed) {
  for (size_t i = 0; i < unprocessed.size();) {
    const std::string& table_name = requests[unprocessed[i]].table_name;
    const size_t first = i;
    for (; i < unprocessed.size() && requests[unprocessed[i]].table_name == table_name; ++i) {
    }
    out.Add(table_name, [&](wire::out::WriteRequests& writes) {
      for (size_t j = first; j < i; ++j) {
        const WriteRequest& request = requests[unprocessed[j]];
        writes.Add([&](wire::out::WriteRequest& write) {
          if (request.kind == WriteRequest::Kind::kPut) {
            write.PutRequest([&](wire::out::PutRequest& put) {
              put.Item([&](json::Writer& item) { EncodeItem(item, request.item); });
            });
          } else {
            write.DeleteRequest([&](wire::out::DeleteRequest& remove) {
              remove.Key([&](json::Writer& key) { EncodeItem(key, request.item); });
            });
          }
        });
      }
    });
  }
}

}  // namespace

Status BatchWriteItem(Engine& engine, const wire::BatchWriteItemInput& in,
                      const Status& constraints, json::Writer& response, Ticket& ticket) {
  BatchWriteItemArgs args;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  args.return_item_collection_metrics =
      ReturnItemCollectionMetricsOf(in.return_item_collection_metrics);
  AttributeDecoder decoder(in.kValueRules);
  std::vector<WriteRequest>& writes = args.requests;
  bool one_of_each = true;  // each WriteRequest names exactly one of PutRequest and DeleteRequest
  const json::Value empty(rapidjson::kObjectType);
  for (const auto& member : (in.request_items != nullptr ? *in.request_items : empty).GetObject()) {
    if (member.value.IsNull() || member.value.Size() > kMaxWrites) continue;  // a constraint
    const std::string table_name(member.name.GetString(), member.name.GetStringLength());
    for (const json::Value& element : member.value.GetArray()) {
      wire::WriteRequest write;
      wire::View(element, write);
      if ((write.put_request == nullptr) == (write.delete_request == nullptr)) {
        one_of_each = false;
        continue;
      }
      WriteRequest write_request;
      write_request.table_name = table_name;
      if (write.put_request != nullptr) {
        wire::PutRequest put;
        wire::View(*write.put_request, put);
        write_request.item = decoder.DecodeItem(put.item);
      } else {
        write_request.kind = WriteRequest::Kind::kDelete;
        wire::DeleteRequest remove;
        wire::View(*write.delete_request, remove);
        write_request.item = decoder.DecodeItem(remove.key);
      }
      writes.push_back(std::move(write_request));
    }
  }
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  if (!one_of_each) {
    return Error::Validation(
        "Supplied WriteRequest must contain exactly one of PutRequest or DeleteRequest");
  }
  if (writes.size() > kMaxWrites) {
    return Error::Validation("Too many items requested for the BatchWriteItem call");
  }
  auto outcome = engine.BatchWriteItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  wire::Write<wire::out::BatchWriteItemOutput>(response, [&](auto& out) {
    out.UnprocessedItems([&](wire::out::BatchWriteItemRequestMap& unprocessed) {
      EncodeUnprocessedItems(unprocessed, args.requests, outcome.value().unprocessed);
    });
    EncodeItemCollectionMetricsMember(out, outcome.value().item_collection_metrics);
    EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity,
                                 args.return_consumed_capacity);
  });
  return Ok{};
}

}  // namespace ddbd::operations
