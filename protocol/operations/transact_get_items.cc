#include <optional>
#include <string>
#include <vector>

#include "engine/api/transactions.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status TransactGetItems(Engine& engine, const wire::TransactGetItemsInput& in,
                        const Status& constraints, json::Writer& response) {
  AttributeDecoder decoder(in.kValueRules);
  TransactGetItemsArgs args;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  std::vector<wire::Get> gets;
  // Read for its keys' SerializationExceptions even when a constraint failed, unless too long.
  const json::Value* items = in.transact_items;
  if (items != nullptr && items->Size() <= kMaxTransactionActions) {
    for (const json::Value& element : items->GetArray()) {
      wire::TransactGetItem item;
      wire::View(element, item);
      if (item.get == nullptr) continue;  // a constraint failure
      wire::Get& get = gets.emplace_back();
      wire::View(*item.get, get);
      GetRequest read;
      read.table_name = TableNameOf(engine, get.table_name);
      read.key = decoder.DecodeItem(get.key);
      args.gets.push_back(std::move(read));
    }
  }
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  std::vector<std::optional<std::vector<DocumentPath>>> projections;
  for (const wire::Get& get : gets) {
    auto projection = DecodeProjection(ProjectionMembersOf(get));
    if (!projection.ok()) return projection.error();
    projections.push_back(std::move(projection).value());
  }
  for (size_t i = 0; i < projections.size(); ++i) {
    if (projections[i]) args.gets[i].projection = &*projections[i];
  }
  auto outcome = engine.TransactGetItems(args);
  if (!outcome.ok()) return outcome.error();
  wire::Write<wire::out::TransactGetItemsOutput>(response, [&](auto& out) {
    EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity,
                                 args.return_consumed_capacity);
    out.Responses([&](wire::out::ItemResponseList& list) {
      for (const ReadItem& item : outcome.value().items) {
        list.Add([&](wire::out::ItemResponse& one) {
          if (item.found()) one.Item([&](json::Writer& writer) { EncodeReadItem(writer, item); });
        });
      }
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
