// Query's key condition: a KeyConditionExpression (already parsed as a condition) or legacy
// KeyConditions, reduced to key terms with DynamoDB's structural checks. Whether the terms fit
// the table's key schema is the engine's check, after the table is found.
#pragma once

#include <vector>

#include "engine/api/reads.h"
#include "engine/error.h"
#include "engine/expression/condition.h"
#include "protocol/json_reader.h"
#include "protocol/wire/value_rules.h"

namespace ddbd {

// ValidationException for OR, NOT, IN, <> or functions other than begins_with, nested paths or
// operations, conditions without a key attribute or with two, and two conditions on one key.
// Takes the condition apart (its values move into the terms).
Result<std::vector<KeyTerm>> KeyTermsFromCondition(Condition condition);
// The conditions `condition` ANDs together, in order (itself when it is no AND).
std::vector<const Condition*> AndedConditions(const Condition& condition);

// Legacy KeyConditions (attribute -> ComparisonOperator + AttributeValueList) of a request the
// generated layer has read and checked.
Result<std::vector<KeyTerm>> DecodeKeyConditions(const json::Value& key_conditions,
                                                 wire::ValueRules rules = {});

}  // namespace ddbd
