// Parses an UpdateExpression (SET, REMOVE, ADD, DELETE clauses) into update actions with
// placeholders resolved, applying DynamoDB's syntax and semantic checks.
#pragma once

#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/expression/update.h"
#include "protocol/expression/document_paths.h"
#include "protocol/expression/expression_values.h"

namespace ddbd {

Result<std::vector<UpdateAction>> ParseUpdate(std::string_view text, ExpressionNames& names,
                                              ExpressionValues& values);

}  // namespace ddbd
