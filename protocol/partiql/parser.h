// DynamoDB's PartiQL statements, parsed by hand (recursive descent): SELECT, INSERT, UPDATE,
// DELETE and, inside transactions, EXISTS(SELECT ...). Every recursion (parentheses, NOT, nested
// literals) is bounded, so no input can exhaust the stack.
#pragma once

#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "protocol/partiql/statement.h"

namespace ddbd::partiql {

// The deepest nesting of parentheses and NOT in a condition; deeper is "Statement wasn't well
// formed". A literal's lists and maps stop at DynamoDB's 32 levels.
inline constexpr int kMaxParseDepth = 64;

// Parses `text`, replacing the i-th `?` with parameters[i]. ValidationException with DynamoDB's
// texts (protocol/partiql/messages.h): "Statement wasn't well formed, can't be processed: ..."
// for syntax, the number and literal rules, and "Number of parameters in request and statement
// don't match." when the counts differ.
Result<Statement> Parse(std::string_view text, const std::vector<AttributeValue>& parameters);

}  // namespace ddbd::partiql
