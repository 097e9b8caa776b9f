// Parses ConditionExpression (and, later, FilterExpression) text into a Condition with every
// placeholder resolved, applying DynamoDB's syntax and semantic checks in its order of report.
#pragma once

#include <string_view>

#include "engine/error.h"
#include "engine/expression/condition.h"
#include "protocol/expression/document_paths.h"
#include "protocol/expression/expression_values.h"

namespace ddbd {

// `kind` names the member in messages ("ConditionExpression"). Uses of names and values are
// recorded in `names`/`values`, so the caller can report unused ones across all expressions.
Result<Condition> ParseCondition(std::string_view text, std::string_view kind,
                                 ExpressionNames& names, ExpressionValues& values);

}  // namespace ddbd
