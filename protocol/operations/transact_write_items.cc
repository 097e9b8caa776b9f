#include <array>
#include <functional>
#include <string>
#include <string_view>

#include "protocol/error_response.h"
#include "protocol/generated/enums.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/transaction_request.h"

namespace ddbd::operations {
namespace {

using Kind = TransactWriteAction::Kind;

struct ActionMember {
  const char* member;  // in the request
  const char* path;    // in constraint messages
  const char* shape;   // in serialization messages
  Kind kind;
};
constexpr std::array<ActionMember, 4> kActions = {{
    {"ConditionCheck", "conditionCheck", "ConditionCheck", Kind::kConditionCheck},
    {"Put", "put", "Put", Kind::kPut},
    {"Delete", "delete", "Delete", Kind::kDelete},
    {"Update", "update", "Update", Kind::kUpdate},
}};

// One TransactItems element: exactly one action, its table, item or key and
// ReturnValuesOnConditionCheckFailure; `body` is set to the action's object, whose expressions
// are decoded once every member is known to be well formed.
Result<TransactWriteAction> DecodeAction(const json::Value& element, size_t index,
                                         AttributeDecoder& decoder, ConstraintErrors& errors,
                                         const json::Value*& body) {
  const ActionMember* found = nullptr;
  for (const ActionMember& member : kActions) {
    auto action = json::AsStructure(json::Member(element, member.member), member.shape);
    if (!action.ok()) return action.error();
    if (action.value() == nullptr) continue;
    if (found != nullptr) {
      // UNCONFIRMED: DynamoDB's text for an element naming two actions.
      return Error::Validation(
          "TransactItems can only contain one of Check, Put, Update or Delete");
    }
    found = &member;
    body = action.value();
  }
  if (found == nullptr) {
    return Error::Validation("TransactItems can only contain one of Check, Put, Update or Delete");
  }
  const std::string path = TransactItemPath(index) + "." + found->path;
  TransactWriteAction action;
  action.kind = found->kind;
  auto table_name = DecodeActionTableName(*body, path, errors);
  if (!table_name.ok()) return table_name.error();
  action.table_name = std::move(table_name).value();
  const char* item_member = found->kind == Kind::kPut ? "Item" : "Key";
  const json::Value* item = json::Member(*body, item_member);
  if (item == nullptr) errors.MustNotBeNull(path + (found->kind == Kind::kPut ? ".item" : ".key"));
  action.item = decoder.DecodeItem(item);
  if (found->kind == Kind::kConditionCheck &&
      json::Member(*body, "ConditionExpression") == nullptr) {
    errors.MustNotBeNull(path + ".conditionExpression");
  }
  if (found->kind == Kind::kUpdate && json::Member(*body, "UpdateExpression") == nullptr) {
    errors.MustNotBeNull(path + ".updateExpression");
  }
  auto on_failure = json::AsString(json::Member(*body, "ReturnValuesOnConditionCheckFailure"));
  if (!on_failure.ok()) return on_failure.error();
  if (on_failure.value()) {
    action.return_item_on_condition_failure = *on_failure.value() == "ALL_OLD";
    if (*on_failure.value() != "ALL_OLD" && *on_failure.value() != "NONE") {
      errors.Enum(*on_failure.value(), path + ".returnValuesOnConditionCheckFailure",
                  wire::kReturnValuesOnConditionCheckFailure);
    }
  }
  return action;
}

Result<TransactWriteItemsArgs> DecodeTransactWriteItems(const json::Value& request,
                                                        uint64_t fingerprint) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  TransactWriteItemsArgs args;
  auto items = DecodeTransactItems(request, errors);
  if (!items.ok()) return items.error();
  if (Status capacity = DecodeWriteCapacityMembers(request, errors, args.return_consumed_capacity,
                                                   args.return_item_collection_metrics);
      !capacity.ok()) {
    return capacity.error();
  }
  auto token = json::AsString(json::Member(request, "ClientRequestToken"));
  if (!token.ok()) return token.error();
  if (token.value()) {
    if (token.value()->empty()) errors.MinLength(*token.value(), "clientRequestToken", 1);
    if (token.value()->size() > 36) errors.MaxLength(*token.value(), "clientRequestToken", 36);
    args.client_request_token = std::string(*token.value());
    args.request_fingerprint = fingerprint;
  }
  const json::Value* list = items.value();
  std::vector<const json::Value*> bodies;
  if (list != nullptr && list->Size() <= kMaxTransactionActions) {
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
      auto element = json::AsListElementStructure(&(*list)[i], "TransactWriteItem");
      if (!element.ok()) return element.error();
      auto action = DecodeAction(*element.value(), i, decoder, errors, bodies.emplace_back());
      if (!action.ok()) return action.error();
      args.actions.push_back(std::move(action).value());
    }
  }
  if (Status problem = FirstProblem(decoder, errors); !problem.ok()) return problem.error();
  // Expressions last, as for the single-item writes: each action's own names and values.
  for (size_t i = 0; i < args.actions.size(); ++i) {
    auto expressions = DecodeWriteExpressions(*bodies[i], args.actions[i].kind == Kind::kUpdate);
    if (!expressions.ok()) return expressions.error();
    args.actions[i].condition = std::move(expressions.value().condition);
    args.actions[i].actions = std::move(expressions.value().update);
  }
  return args;
}

void EncodeOutcome(json::Writer& response, const TransactWriteItemsOutcome& outcome,
                   ReturnConsumedCapacity mode) {
  response.StartObject();
  EncodeConsumedCapacityMember(response, outcome.consumed_capacity, mode);
  EncodeItemCollectionMetricsMember(response, outcome.item_collection_metrics);
  response.EndObject();
}

}  // namespace

void TransactWriteItems(Engine& engine, const json::Value& request, uint64_t fingerprint,
                        const DispatchDone& done) {
  auto args = DecodeTransactWriteItems(request, fingerprint);
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
