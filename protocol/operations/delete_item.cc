#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status DeleteItem(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* key_json = json::Member(request, "Key");
  if (key_json == nullptr) errors.MustNotBeNull("key");
  Item key = decoder.DecodeItem(key_json);
  auto return_values = DecodeReturnOptions(request, errors);
  if (!return_values.ok()) return return_values.error();
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  if (return_values.value() != ReturnValues::kNone &&
      return_values.value() != ReturnValues::kAllOld) {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  if (Status refused =
          RefuseUnimplemented(request, {"ConditionExpression", "Expected", "ConditionalOperator",
                                        "ExpressionAttributeNames", "ExpressionAttributeValues"});
      !refused.ok()) {
    return refused;
  }
  const bool return_old = return_values.value() == ReturnValues::kAllOld;
  auto old = engine.DeleteItem(table_name.value(), key, return_old);
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
