#include <array>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

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
  // A ConditionCheck's and an Update's values may nest a level deeper than an item (an Update's
  // finished item is then judged as an item): recorded against AWS (behaviours-to-match B5).
  if (kind == Kind::kConditionCheck || kind == Kind::kUpdate) {
    expressions.value_rules.extra_levels = 1;
  }
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

// One TransactItems element as read: the action, its expression members, and the decoder that
// read its item or key (holding that value's first errors).
// What one TransactItems element leaves to judge once every element is read: its expression
// members, and the decoder that read its item or key (holding that value's first errors).
struct ReadAction {
  explicit ReadAction(wire::ValueRules rules) : decoder(rules) {}
  WriteExpressionMembers expressions;
  AttributeDecoder decoder;
};

// An action's own problems in DynamoDB's order (behaviours-to-match C1): its item's attribute
// names, then its expressions, then its values (nesting first).
Status FirstProblemOf(ReadAction& read, TransactWriteAction& action) {
  if (Status names = read.decoder.top_level_name_status(); !names.ok()) return names;
  auto decoded = DecodeWriteExpressions(read.expressions);
  if (!decoded.ok()) return decoded.error();
  if (Status values = read.decoder.validation_status(); !values.ok()) return values;
  action.condition = std::move(decoded.value().condition);
  action.actions = std::move(decoded.value().update);
  return Ok{};
}

Result<TransactWriteItemsArgs> DecodeTransactWriteItems(const Engine& engine,
                                                        const wire::TransactWriteItemsInput& in,
                                                        const Status& constraints,
                                                        uint64_t fingerprint) {
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
  std::vector<ReadAction> read;
  if (list != nullptr && list->Size() <= kMaxTransactionActions) {
    read.reserve(list->Size());
    args.actions.reserve(list->Size());
    for (const json::Value& element : list->GetArray()) {
      ReadAction& next = read.emplace_back(in.kValueRules);
      auto action = DecodeAction(engine, element, next.decoder, next.expressions);
      if (!action.ok()) {
        // Two actions in one element is the operation's own rule: after the constraints.
        if (!constraints.ok()) return constraints.error();
        return action.error();
      }
      args.actions.push_back(std::move(action).value());
    }
  }
  // Wrongly typed JSON anywhere first, then the request's constraints, then each action's own
  // problems in request order: a later action's never wins over an earlier one's.
  for (const ReadAction& action : read) {
    if (Status serialization = action.decoder.serialization_status(); !serialization.ok()) {
      return serialization.error();
    }
  }
  if (!constraints.ok()) return constraints.error();
  for (size_t i = 0; i < read.size(); ++i) {
    if (Status problem = FirstProblemOf(read[i], args.actions[i]); !problem.ok()) {
      return problem.error();
    }
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
