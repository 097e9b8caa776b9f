#include <algorithm>
#include <string>
#include <vector>

#include "protocol/generated/enums.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

// With its Key given, UpdateItem's ReturnValues is judged before the request's other constraints
// and alone; without it, among them (recorded against AWS: behaviours-to-match B6).
Status ReturnValuesFirst(const wire::UpdateItemInput& in) {
  if (in.key == nullptr || !in.return_values) return Ok{};
  const auto& values = wire::kReturnValue;  // in the order DynamoDB lists them
  if (std::find(values.begin(), values.end(), *in.return_values) != values.end()) return Ok{};
  ConstraintErrors errors;
  errors.Add(Quoted(*in.return_values), "returnValues",
             "Member must satisfy enum value set: " +
                 JavaList(std::vector<std::string>(values.begin(), values.end())));
  return errors.ToStatus();
}

}  // namespace

Status UpdateItem(Engine& engine, const wire::UpdateItemInput& in, const Status& constraints,
                  json::Writer& response, Ticket& ticket) {
  AttributeDecoder decoder(in.kValueRules);
  UpdateItemArgs args;
  args.key = decoder.DecodeItem(in.key);
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (Status return_values = ReturnValuesFirst(in); !return_values.ok()) return return_values;
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  ReturnOptionsOf(in, args);
  auto expressions = DecodeWriteExpressions(WriteExpressionMembersOf(in));
  if (!expressions.ok()) return expressions.error();
  const std::optional<Condition>& condition = expressions.value().condition;
  const std::string table_name = TableNameOf(engine, in.table_name);
  args.table_name = table_name;
  args.condition = condition ? &*condition : nullptr;
  args.actions = std::move(expressions.value().update);
  args.statement_sized = true;
  auto outcome = engine.UpdateItem(args);
  if (!outcome.ok()) return outcome.error();
  ticket = outcome.value().ticket;
  EncodeWriteOutcome<wire::out::UpdateItemOutput>(response, outcome.value(),
                                                  args.return_consumed_capacity);
  return Ok{};
}

}  // namespace ddbd::operations
