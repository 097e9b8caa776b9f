// Members shared by the item operations: ReturnValues, ReturnConsumedCapacity,
// ReturnItemCollectionMetrics, and the write expressions (or their legacy forms).
#pragma once

#include <string_view>

#include "engine/api/items.h"
#include "engine/engine.h"
#include "engine/error.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/json_reader.h"

namespace ddbd {

// ReturnValues as the engine takes it, of a checked request (NONE when absent).
ReturnValues ReturnValuesOf(std::optional<std::string_view> text);

// The four return options of a write request the generated layer has read (PutItemRequest,
// DeleteItemRequest, UpdateItemRequest), into `args`.
template <typename Request>
void ReturnOptionsOf(const Request& request, WriteArgs& args) {
  args.return_values = ReturnValuesOf(request.return_values);
  args.return_consumed_capacity = ReturnConsumedCapacityOf(request.return_consumed_capacity);
  args.return_item_collection_metrics =
      ReturnItemCollectionMetricsOf(request.return_item_collection_metrics);
  args.return_item_on_condition_failure =
      request.return_values_on_condition_check_failure == "ALL_OLD";
}

// DynamoDB's order of reports: wrong JSON types anywhere, then request-shape constraints (as the
// generated layer reported them: wire::Decode's `constraints`), then invalid attribute values.
Status FirstProblem(const AttributeDecoder& decoder, const Status& constraints);

// The members a write's expressions are read from, of a request the generated layer has read and
// checked: PutItemInput, DeleteItemInput, UpdateItemInput, and a transaction's Put, Delete,
// Update and ConditionCheck.
struct WriteExpressionMembers {
  bool with_update = false;  // UpdateItem or a transaction's Update: UpdateExpression is read too
  std::optional<std::string_view> condition_expression;
  std::optional<std::string_view> update_expression;
  const json::Value* expression_attribute_names = nullptr;
  const json::Value* expression_attribute_values = nullptr;
  // The legacy forms, of the single-item writes only.
  const json::Value* expected = nullptr;
  std::optional<std::string_view> conditional_operator;
  const json::Value* attribute_updates = nullptr;
  wire::ValueRules value_rules;  // the operation's (its input's kValueRules)
};
template <typename Input>
WriteExpressionMembers WriteExpressionMembersOf(const Input& input) {
  WriteExpressionMembers members;
  members.condition_expression = input.condition_expression;
  members.expression_attribute_names = input.expression_attribute_names;
  members.expression_attribute_values = input.expression_attribute_values;
  if constexpr (requires { input.update_expression; }) {
    members.with_update = true;
    members.update_expression = input.update_expression;
  }
  if constexpr (requires { input.expected; }) {
    members.expected = input.expected;
    members.conditional_operator = input.conditional_operator;
  }
  if constexpr (requires { input.attribute_updates; }) {
    members.attribute_updates = input.attribute_updates;
  }
  if constexpr (requires { Input::kValueRules; }) members.value_rules = Input::kValueRules;
  return members;
}

// A write's expressions with their ExpressionAttributeNames and ExpressionAttributeValues:
// parsed, placeholders resolved, names and values unused by all of them refused.
struct WriteExpressions {
  std::optional<Condition> condition;  // ConditionExpression
  std::vector<UpdateAction> update;    // UpdateExpression (UpdateItem only)
};
Result<WriteExpressions> DecodeWriteExpressions(const WriteExpressionMembers& members);

// What PutItem and DeleteItem share after their item or key: ReturnValues must be NONE or
// ALL_OLD, and the condition is decoded into `condition`, which `args` point into (so it must
// outlive them).
Status DecodeSingleWriteOptions(const WriteExpressionMembers& members,
                                std::optional<Condition>& condition, WriteArgs& args);

// The answer to a single-item write (`Output`: PutItemOutput, DeleteItemOutput or
// UpdateItemOutput): Attributes, ConsumedCapacity and ItemCollectionMetrics, each when there is
// one.
template <class Output>
void EncodeWriteOutcome(json::Writer& writer, const WriteOutcome& outcome,
                        ReturnConsumedCapacity mode) {
  wire::Write<Output>(writer, [&](Output& out) {
    if (outcome.attributes) {
      out.Attributes([&](json::Writer& item) { EncodeItem(item, *outcome.attributes); });
    } else if (outcome.old_item) {
      out.Attributes([&](json::Writer& item) { EncodeItemBlob(item, outcome.old_item->blob); });
    }
    EncodeConsumedCapacityMember(out, outcome.consumed_capacity, mode);
    if (outcome.item_collection_metrics) {
      out.ItemCollectionMetrics([&](wire::out::ItemCollectionMetrics& metrics) {
        EncodeItemCollectionMetrics(metrics, *outcome.item_collection_metrics);
      });
    }
  });
}

}  // namespace ddbd
