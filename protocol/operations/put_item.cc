#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status PutItem(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* item_json = json::Member(request, "Item");
  if (item_json == nullptr) errors.MustNotBeNull("item");
  Item item = decoder.DecodeItem(item_json);
  auto return_values = DecodeReturnOptions(request, errors);
  if (!return_values.ok()) return return_values.error();
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  std::optional<Condition> condition;
  auto options = DecodeSingleWriteOptions(request, return_values.value(), condition);
  if (!options.ok()) return options.error();
  auto old = engine.PutItem(table_name.value(), item, options.value());
  if (!old.ok()) return old.error();
  response.StartObject();
  if (old.value()) {
    response.Key("Attributes");
    EncodeItem(response, *old.value());
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
