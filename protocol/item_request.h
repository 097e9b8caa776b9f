// Members shared by the item operations: ReturnValues, ReturnConsumedCapacity,
// ReturnItemCollectionMetrics, and the expression members that arrive with the expression
// language (refused until then rather than silently ignored).
#pragma once

#include <initializer_list>
#include <string_view>

#include "engine/error.h"
#include "protocol/attribute_value_json.h"
#include "protocol/json_reader.h"
#include "protocol/validation_messages.h"

namespace ddbd {

enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// ReturnValues, ReturnConsumedCapacity and ReturnItemCollectionMetrics of a write (enums checked
// into `errors`; the last two are accepted, real figures come with capacity accounting).
Result<ReturnValues> DecodeReturnOptions(const json::Value& request, ConstraintErrors& errors);
// ReturnConsumedCapacity alone, for reads.
Status DecodeReturnConsumedCapacity(const json::Value& request, ConstraintErrors& errors);

// DynamoDB's order of reports: wrong JSON types anywhere, then request-shape constraints, then
// invalid attribute values.
Status FirstProblem(const AttributeDecoder& decoder, const ConstraintErrors& errors);

// ValidationException naming the first of `members` present in `request`: features ddbd does not
// implement yet must fail loudly, never be ignored.
Status RefuseUnimplemented(const json::Value& request,
                           std::initializer_list<std::string_view> members);

}  // namespace ddbd
