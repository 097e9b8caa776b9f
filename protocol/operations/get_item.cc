#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status GetItem(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* key_json = json::Member(request, "Key");
  if (key_json == nullptr) errors.MustNotBeNull("key");
  Item key = decoder.DecodeItem(key_json);
  // Every read is strongly consistent here, so ConsistentRead only needs type-checking.
  auto consistent = json::AsBoolean(json::Member(request, "ConsistentRead"));
  if (!consistent.ok()) return consistent.error();
  if (Status capacity = DecodeReturnConsumedCapacity(request, errors); !capacity.ok()) {
    return capacity;
  }
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  auto projection = DecodeProjection(request);
  if (!projection.ok()) return projection.error();
  auto item = engine.GetItem(table_name.value(), key);
  if (!item.ok()) return item.error();
  response.StartObject();
  if (item.value()) {
    response.Key("Item");
    EncodeStoredItem(response, item.value()->blob, projection.value());
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
