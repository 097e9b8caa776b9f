#include <array>
#include <functional>
#include <string>
#include <string_view>

#include "engine/api/transactions.h"
#include "protocol/error_response.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

using Kind = TransactWriteAction::Kind;

// One TransactItems element: exactly one action, with its table, item or key,
// ReturnValuesOnConditionCheckFailure and expression members.
template <typename Action>
TransactWriteAction ActionOf(const Engine& engine, const Action& body, Kind kind,
                             const json::Value* item, AttributeDecoder& decoder,
                             WriteExpressionMembers& expressions) {
  TransactWriteAction action;
  action.kind = kind;
  action.table_name = TableNameOf(engine, body.table_name);
  action.item = decoder.DecodeItem(item);
  action.return_item_on_condition_failure =
      body.return_values_on_condition_check_failure == "ALL_OLD";
  expressions = WriteExpressionMembersOf(body);
  return action;
}

Result<TransactWriteAction> DecodeAction(const Engine& engine, const json::Value& element,
                                         AttributeDecoder& decoder,
                                         WriteExpressionMembers& expressions) {
  wire::TransactWriteItem item;
  wire::View(element, item);
  const int given = (item.condition_check != nullptr) + (item.put != nullptr) +
                    (item.delete_ != nullptr) + (item.update != nullptr);
  if (given == 0) {  // recorded against AWS (behaviours-to-match C4)
    return Error::Validation(
        "1 validation error detected: Value '' at 'transactItems' failed to satisfy constraint: "
        "TransactWriteRequest should contain Delete or Put or Update or ConditionCheck");
  }
  if (given > 1) {
    // UNCONFIRMED: DynamoDB's text for an element naming two actions.
    return Error::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
  }
  if (item.condition_check != nullptr) {
    wire::ConditionCheck body;
    wire::View(*item.condition_check, body);
    return ActionOf(engine, body, Kind::kConditionCheck, body.key, decoder, expressions);
  }
  if (item.put != nullptr) {
    wire::Put body;
    wire::View(*item.put, body);
    return ActionOf(engine, body, Kind::kPut, body.item, decoder, expressions);
  }
  if (item.delete_ != nullptr) {
    wire::Delete body;
    wire::View(*item.delete_, body);
    return ActionOf(engine, body, Kind::kDelete, body.key, decoder, expressions);
  }
  wire::Update body;
  wire::View(*item.update, body);
  return ActionOf(engine, body, Kind::kUpdate, body.key, decoder, expressions);
}

Result<TransactWriteItemsArgs> DecodeTransactWriteItems(const Engine& engine,
                                                        const wire::TransactWriteItemsInput& in,
                                                        const Status& constraints,
                                                        uint64_t fingerprint) {
  AttributeDecoder decoder(in.kValueRules);
  TransactWriteItemsArgs args;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  args.return_item_collection_metrics =
      ReturnItemCollectionMetricsOf(in.return_item_collection_metrics);
  if (in.client_request_token) {
    args.client_request_token = std::string(*in.client_request_token);
    args.request_fingerprint = fingerprint;
  }
  // Read for its values' SerializationExceptions even when a constraint failed, unless too long.
  const json::Value* list = in.transact_items;
  std::vector<WriteExpressionMembers> expressions;
  if (list != nullptr && list->Size() <= kMaxTransactionActions) {
    for (const json::Value& element : list->GetArray()) {
      auto action = DecodeAction(engine, element, decoder, expressions.emplace_back());
      if (!action.ok()) {
        // Two actions in one element is the operation's own rule: after the constraints.
        if (!constraints.ok()) return constraints.error();
        return action.error();
      }
      args.actions.push_back(std::move(action).value());
    }
  }
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem.error();
  // Expressions last, as for the single-item writes: each action's own names and values.
  for (size_t i = 0; i < args.actions.size(); ++i) {
    auto decoded = DecodeWriteExpressions(expressions[i]);
    if (!decoded.ok()) return decoded.error();
    args.actions[i].condition = std::move(decoded.value().condition);
    args.actions[i].actions = std::move(decoded.value().update);
  }
  return args;
}

void EncodeOutcome(json::Writer& response, const TransactWriteItemsOutcome& outcome,
                   ReturnConsumedCapacity mode) {
  wire::Write<wire::out::TransactWriteItemsOutput>(response, [&](auto& out) {
    EncodeConsumedCapacityMember(out, outcome.consumed_capacity, mode);
    EncodeItemCollectionMetricsMember(out, outcome.item_collection_metrics);
  });
}

}  // namespace

void TransactWriteItems(Engine& engine, const wire::TransactWriteItemsInput& in,
                        const Status& constraints, uint64_t fingerprint, const DispatchDone& done) {
  auto args = DecodeTransactWriteItems(engine, in, constraints, fingerprint);
  if (!args.ok()) return done(ErrorResponse(args.error()));
  const ReturnConsumedCapacity mode = args.value().return_consumed_capacity;
  engine.TransactWriteItemsAsync(
      std::move(args).value(), [&engine, done, mode](Result<TransactWriteItemsOutcome> outcome) {
        if (!outcome.ok()) return done(ErrorResponse(outcome.error()));
        json::Buffer buffer;
        json::Writer writer(buffer);
        EncodeOutcome(writer, outcome.value(), mode);
        Answer(engine, done, {200, std::string(buffer.GetString(), buffer.GetSize())},
               outcome.value().ticket);
      });
}

}  // namespace ddbd::operations
