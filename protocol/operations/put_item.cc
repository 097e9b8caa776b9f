#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status PutItem(Engine& engine, const json::Value& request, json::Writer& response, Ticket& ticket) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  PutItemArgs args;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  const json::Value* item_json = json::Member(request, "Item");
  if (item_json == nullptr) errors.MustNotBeNull("item");
  args.item = decoder.DecodeItem(item_json);
  if (Status returns = DecodeReturnOptions(request, errors, args); !returns.ok()) return returns;
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem;
  std::optional<Condition> condition;
  if (Status options = DecodeSingleWriteOptions(request, condition, args); !options.ok()) {
    return options;
  }
  args.table_name = table_name.value();
  auto outcome = engine.PutItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  EncodeWriteOutcome(response, outcome.value(), args.return_consumed_capacity);
  return Ok{};
}

}  // namespace ddbd::operations
