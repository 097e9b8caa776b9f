// Members shared by the item operations: ReturnValues, ReturnConsumedCapacity,
// ReturnItemCollectionMetrics, and the write expressions (or their legacy forms).
#pragma once

#include <string_view>

#include "engine/engine.h"
#include "engine/error.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "protocol/attribute_value_json.h"
#include "protocol/json_reader.h"
#include "protocol/validation_messages.h"

namespace ddbd {

enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

struct ReturnOptions {
  ReturnValues values = ReturnValues::kNone;
  bool item_on_condition_failure = false;  // ReturnValuesOnConditionCheckFailure: ALL_OLD
};

// ReturnValues, ReturnValuesOnConditionCheckFailure, ReturnConsumedCapacity and
// ReturnItemCollectionMetrics of a write (enums checked into `errors`; the last two are
// accepted, real figures come with capacity accounting).
Result<ReturnOptions> DecodeReturnOptions(const json::Value& request, ConstraintErrors& errors);
// ReturnConsumedCapacity alone, for reads.
Status DecodeReturnConsumedCapacity(const json::Value& request, ConstraintErrors& errors);

// DynamoDB's order of reports: wrong JSON types anywhere, then request-shape constraints, then
// invalid attribute values.
Status FirstProblem(const AttributeDecoder& decoder, const ConstraintErrors& errors);

// A write's expressions with their ExpressionAttributeNames and ExpressionAttributeValues:
// parsed, placeholders resolved, names and values unused by all of them refused.
struct WriteExpressions {
  std::optional<Condition> condition;  // ConditionExpression
  std::vector<UpdateAction> update;    // UpdateExpression (UpdateItem only)
};
// `with_update`: the request is an UpdateItem, whose UpdateExpression is read too.
Result<WriteExpressions> DecodeWriteExpressions(const json::Value& request, bool with_update);

// What PutItem and DeleteItem share after their item or key: ReturnValues must be NONE or
// ALL_OLD, the condition is decoded into `condition` (which the options point into, so it must
// outlive them), and legacy conditions are refused until they are implemented.
Result<Engine::WriteOptions> DecodeSingleWriteOptions(const json::Value& request,
                                                      const ReturnOptions& returns,
                                                      std::optional<Condition>& condition);

}  // namespace ddbd
