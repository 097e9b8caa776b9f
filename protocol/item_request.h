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
#include "protocol/validation_messages.h"

namespace ddbd {

// ReturnValues, ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity and
// ReturnItemCollectionMetrics of a write, into `args` (invalid enums into `errors`).
Status DecodeReturnOptions(const json::Value& request, ConstraintErrors& errors, WriteArgs& args);

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

// DynamoDB's order of reports: wrong JSON types anywhere, then request-shape constraints, then
// invalid attribute values.
Status FirstProblem(const AttributeDecoder& decoder, const ConstraintErrors& errors);
// The same, the constraints' failures as the generated layer reported them (wire::Decode).
Status FirstProblem(const AttributeDecoder& decoder, const Status& constraints);

// A write's expressions with their ExpressionAttributeNames and ExpressionAttributeValues:
// parsed, placeholders resolved, names and values unused by all of them refused.
struct WriteExpressions {
  std::optional<Condition> condition;  // ConditionExpression
  std::vector<UpdateAction> update;    // UpdateExpression (UpdateItem only)
};
// `with_update`: the request is an UpdateItem, whose UpdateExpression is read too.
Result<WriteExpressions> DecodeWriteExpressions(const json::Value& request, bool with_update);

// What PutItem and DeleteItem share after their item or key: ReturnValues must be NONE or
// ALL_OLD, and the condition is decoded into `condition`, which `args` point into (so it must
// outlive them).
Status DecodeSingleWriteOptions(const json::Value& request, std::optional<Condition>& condition,
                                WriteArgs& args);

// The answer to a single-item write: Attributes, ConsumedCapacity and ItemCollectionMetrics, each
// when there is one.
void EncodeWriteOutcome(json::Writer& writer, const WriteOutcome& outcome,
                        ReturnConsumedCapacity mode);

}  // namespace ddbd
