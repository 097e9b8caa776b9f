#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status GetItem(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  GetItemArgs args;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* key_json = json::Member(request, "Key");
  if (key_json == nullptr) errors.MustNotBeNull("key");
  args.key = decoder.DecodeItem(key_json);
  // Every read is strongly consistent here; ConsistentRead decides what the read costs.
  auto consistent = json::AsBoolean(json::Member(request, "ConsistentRead"));
  if (!consistent.ok()) return consistent.error();
  args.consistent_read = consistent.value().value_or(false);
  auto capacity = DecodeReturnConsumedCapacity(request, errors);
  if (!capacity.ok()) return capacity.error();
  args.return_consumed_capacity = capacity.value();
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  auto projection = DecodeProjection(request);
  if (!projection.ok()) return projection.error();
  args.table_name = table_name.value();
  if (projection.value()) args.projection = &*projection.value();
  auto outcome = engine.GetItem(args);
  if (!outcome.ok()) return outcome.error();
  response.StartObject();
  if (outcome.value().found()) {
    response.Key("Item");
    EncodeReadItem(response, outcome.value());
  }
  EncodeConsumedCapacityMember(response, outcome.value().consumed_capacity,
                               args.return_consumed_capacity);
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
