// Parses an UpdateExpression (SET, REMOVE, ADD, DELETE clauses) into update actions with
// placeholders resolved, applying DynamoDB's syntax and semantic checks.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/expression/update.h"
#include "protocol/expression/document_paths.h"
#include "protocol/expression/expression_values.h"

namespace ddbd {

// Uses of names and values are recorded in `names`/`values`. A text this thread parsed before is
// not parsed again: its parse is bound to this request's names and values (kept_parses.cc), with
// the same result.
Result<std::vector<UpdateAction>> ParseUpdate(std::string_view text, ExpressionNames& names,
                                              ExpressionValues& values);

// How many ParseUpdate calls on this thread were answered by binding a kept parse (tests).
size_t UpdatesBoundOnThisThread();

// The same, always parsed from the text.
Result<std::vector<UpdateAction>> ParseUpdateAfresh(std::string_view text, ExpressionNames& names,
                                                    ExpressionValues& values);

// The text parsed with its placeholders in place (as ParseUnboundCondition does): "#n" in paths,
// {S: ":v"} for values; ADD's and DELETE's operand types and the paths' overlaps are left to
// BoundActionsFit. Nullopt when the text does not parse.
std::optional<std::vector<UpdateAction>> ParseUnboundUpdate(std::string_view text);

// True when no check the parse makes of bound actions fails: ADD's and DELETE's operand types,
// paths that overlap or conflict.
bool BoundActionsFit(const std::vector<UpdateAction>& actions);

}  // namespace ddbd
