#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status UpdateItem(Engine& engine, const wire::UpdateItemInput& in, const Status& constraints,
                  json::Writer& response, Ticket& ticket) {
  AttributeDecoder decoder(in.kValueRules);
  UpdateItemArgs args;
  args.key = decoder.DecodeItem(in.key);
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  ReturnOptionsOf(in, args);
  auto expressions = DecodeWriteExpressions(WriteExpressionMembersOf(in));
  if (!expressions.ok()) return expressions.error();
  const std::optional<Condition>& condition = expressions.value().condition;
  const std::string table_name = TableNameOf(engine, in.table_name);
  args.table_name = table_name;
  args.condition = condition ? &*condition : nullptr;
  args.actions = std::move(expressions.value().update);
  auto outcome = engine.UpdateItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  EncodeWriteOutcome<wire::out::UpdateItemOutput>(response, outcome.value(),
                                                  args.return_consumed_capacity);
  return Ok{};
}

}  // namespace ddbd::operations
