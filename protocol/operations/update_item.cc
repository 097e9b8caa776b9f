#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

Engine::UpdateReturn ToUpdateReturn(ReturnValues values) {
  switch (values) {
    case ReturnValues::kNone:
      return Engine::UpdateReturn::kNone;
    case ReturnValues::kAllOld:
      return Engine::UpdateReturn::kAllOld;
    case ReturnValues::kUpdatedOld:
      return Engine::UpdateReturn::kUpdatedOld;
    case ReturnValues::kAllNew:
      return Engine::UpdateReturn::kAllNew;
    case ReturnValues::kUpdatedNew:
      return Engine::UpdateReturn::kUpdatedNew;
  }
  return Engine::UpdateReturn::kNone;
}

}  // namespace

Status UpdateItem(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* key_json = json::Member(request, "Key");
  if (key_json == nullptr) errors.MustNotBeNull("key");
  Item key = decoder.DecodeItem(key_json);
  auto returns = DecodeReturnOptions(request, errors);
  if (!returns.ok()) return returns.error();
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  auto expressions = DecodeWriteExpressions(request, /*with_update=*/true);
  if (!expressions.ok()) return expressions.error();
  const std::optional<Condition>& condition = expressions.value().condition;
  Engine::WriteOptions options;
  options.condition = condition ? &*condition : nullptr;
  options.return_item_on_condition_failure = returns.value().item_on_condition_failure;
  auto attributes = engine.UpdateItem(table_name.value(), key, expressions.value().update, options,
                                      ToUpdateReturn(returns.value().values));
  if (!attributes.ok()) return attributes.error();
  response.StartObject();
  if (attributes.value()) {
    response.Key("Attributes");
    EncodeItem(response, *attributes.value());
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
