#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status UpdateItem(Engine& engine, const json::Value& request, json::Writer& response,
                  Ticket& ticket) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  UpdateItemArgs args;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* key_json = json::Member(request, "Key");
  if (key_json == nullptr) errors.MustNotBeNull("key");
  args.key = decoder.DecodeItem(key_json);
  if (Status returns = DecodeReturnOptions(request, errors, args); !returns.ok()) return returns;
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  auto expressions = DecodeWriteExpressions(request, /*with_update=*/true);
  if (!expressions.ok()) return expressions.error();
  const std::optional<Condition>& condition = expressions.value().condition;
  args.table_name = table_name.value();
  args.condition = condition ? &*condition : nullptr;
  args.actions = std::move(expressions.value().update);
  auto outcome = engine.UpdateItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  EncodeWriteOutcome(response, outcome.value(), args.return_consumed_capacity);
  return Ok{};
}

}  // namespace ddbd::operations
