#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status DeleteItem(Engine& engine, const wire::DeleteItemInput& in, const Status& constraints,
                  json::Writer& response, Ticket& ticket) {
  AttributeDecoder decoder(in.kValueRules);
  DeleteItemArgs args;
  args.key = decoder.DecodeItem(in.key);
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  ReturnOptionsOf(in, args);
  std::optional<Condition> condition;
  if (Status options = DecodeSingleWriteOptions(WriteExpressionMembersOf(in), condition, args);
      !options.ok()) {
    return options;
  }
  const std::string table_name = TableNameOf(engine, in.table_name);
  args.table_name = table_name;
  auto outcome = engine.DeleteItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  EncodeWriteOutcome<wire::out::DeleteItemOutput>(response, outcome.value(),
                                                  args.return_consumed_capacity);
  return Ok{};
}

}  // namespace ddbd::operations
