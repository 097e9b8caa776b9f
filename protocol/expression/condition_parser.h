// Parses ConditionExpression, FilterExpression, KeyConditionExpression (and
// SearchConditionExpression) text into a Condition with every placeholder resolved, applying
// DynamoDB's syntax and semantic checks in its order of report.
#pragma once

#include <optional>
#include <string_view>

#include "engine/error.h"
#include "engine/expression/condition.h"
#include "protocol/expression/document_paths.h"
#include "protocol/expression/expression_values.h"

namespace ddbd {

// `kind` names the member in messages ("ConditionExpression"). Uses of names and values are
// recorded in `names`/`values`, so the caller can report unused ones across all expressions.
// A text this thread parsed before is not parsed again: its parse is bound to this request's
// names and values (kept_parses.cc), with the same result.
Result<Condition> ParseCondition(std::string_view text, std::string_view kind,
                                 ExpressionNames& names, ExpressionValues& values);

// How many ParseCondition calls on this thread were answered by binding a kept parse (tests).
size_t ConditionsBoundOnThisThread();

// The same, always parsed from the text.
Result<Condition> ParseConditionAfresh(std::string_view text, std::string_view kind,
                                       ExpressionNames& names, ExpressionValues& values);

// The text parsed with its placeholders in place: a path element "#n" and a value operand
// {S: ":v"} stand for what a request binds to them (a name the text spells out never starts with
// '#', and every value in a condition is a placeholder). The checks that depend on the bound
// values and names are left to BoundOperandsFit. Nullopt when the text does not parse, or parses
// to something a binding could not reproduce (size() of a value, folded into a number).
std::optional<Condition> ParseUnboundCondition(std::string_view text, std::string_view kind);

// True when no check the parse makes of `condition`'s own operands (not its children's) once they
// are bound fails: comparable types, distinct paths, BETWEEN's bounds, attribute_type's type name,
// begins_with's operand types.
bool BoundOperandsFit(const Condition& condition);

}  // namespace ddbd
