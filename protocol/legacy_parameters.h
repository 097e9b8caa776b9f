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

namespace ddbd {

// Expected, QueryFilter or ScanFilter (`member`) combined by ConditionalOperator. Nullopt when
// the request has no such member.
Result<std::optional<Condition>> DecodeLegacyConditions(const json::Value& request,
                                                        const char* member_name);
inline Result<std::optional<Condition>> DecodeExpected(const json::Value& request) {
  return DecodeLegacyConditions(request, "Expected");
}

// A request uses expression parameters or the legacy ones they replaced, never both: if members
// of both `legacy` and `expression` are present (not null), DynamoDB's "Can not use both
// expression and non-expression parameters" error naming every present one, in the given order
// (each operation's own, as DynamoDB lists them).
Status CheckOneParameterStyle(const json::Value& request,
                              std::initializer_list<std::string_view> legacy,
                              std::initializer_list<std::string_view> expression);

// Empty when the request has no AttributeUpdates.
Result<std::vector<UpdateAction>> DecodeAttributeUpdates(const json::Value& request);

}  // namespace ddbd
