// The pre-expression parameters, translated into the same trees the expression parsers build, so
// one evaluator serves both: Expected with ConditionalOperator (conditions) and AttributeUpdates
// (update actions). Messages are DynamoDB's.
#pragma once

#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "protocol/json_reader.h"
#include "protocol/wire/value_rules.h"

namespace ddbd {

// All three take members of a request the generated layer has read and checked
// (protocol/generated/requests.h): their shapes, enums and lengths are DynamoDB's already.

// Which legacy conditions: Expected's entries (ExpectedAttributeValue: Value, Exists,
// ComparisonOperator, AttributeValueList) or QueryFilter's and ScanFilter's (Condition:
// ComparisonOperator, AttributeValueList).
enum class LegacyConditions { kExpected, kFilter };

// Expected, QueryFilter or ScanFilter (`conditions`, null when absent) combined by
// ConditionalOperator. Nullopt when there are none.
Result<std::optional<Condition>> DecodeLegacyConditions(
    const json::Value* conditions, std::optional<std::string_view> conditional_operator,
    LegacyConditions kind, wire::ValueRules rules = {});

// A member of a request and whether it was given (not absent, not null).
struct GivenMember {
  std::string_view name;
  bool given;
};

// A request uses expression parameters or the legacy ones they replaced, never both: if members
// of both `legacy` and `expression` are given, DynamoDB's "Can not use both expression and
// non-expression parameters" error naming every given one, in the given order (each
// operation's own, as DynamoDB lists them).
Status CheckOneParameterStyle(std::initializer_list<GivenMember> legacy,
                              std::initializer_list<GivenMember> expression);

// AttributeUpdates (null when absent) as update actions.
Result<std::vector<UpdateAction>> DecodeAttributeUpdates(const json::Value* attribute_updates,
                                                         wire::ValueRules rules = {});

}  // namespace ddbd
