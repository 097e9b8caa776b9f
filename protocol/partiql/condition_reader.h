// PartiQL's conditions and operands, as WHERE clauses and SET values write them: OR over AND
// over NOT over predicates (comparisons, BETWEEN, IN, IS, the condition functions), and operands
// (paths, literals, parameters, size(path)). protocol/partiql/parser.cc reads statements on it.
// Every recursion is bounded (kMaxParseDepth), so no input can exhaust the stack.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/expression/condition.h"
#include "protocol/partiql/cursor.h"

namespace ddbd::partiql {

class ConditionReader : public Cursor {
 public:
  using Cursor::Cursor;

 protected:
  // One level of infix operators: OR (level 0) over AND (level 1) over NOT and predicates, each
  // level a run of operands joined by its keyword.
  Result<Condition> ParseInfix(int level, int depth);
  Result<Condition> ParseNot(int depth);
  // The only step of the recursion that nests: its frame holds nothing else (a predicate's
  // operands are read in ParseSimplePredicate's), so 64 levels fit small thread stacks.
  Result<Condition> ParsePredicate(int depth);
  Result<Condition> ParseSimplePredicate();
  // What follows a predicate's first operand: a comparison, [NOT] BETWEEN, [NOT] IN, IS.
  Result<Condition> ParseComparison(Operand subject);
  Result<Condition> ParseBetween(Operand subject);
  // The ordering operators take only strings, numbers and binaries; a value of another type
  // (NULL too) is refused, as DynamoDB refuses it (behaviours-to-match D4, recorded); = and <>
  // take every type.
  static Status CheckOrdered(const std::vector<Operand>& operands, std::string_view op);
  // x IN [a, b] or x IN (a, b): a path on the left, at least one value on the right.
  Result<Condition> ParseIn(Operand subject);
  // IS [NOT] MISSING | NULL | a type: attribute_not_exists, attribute_type(NULL) and so on.
  Result<Condition> ParseIs(Operand subject);
  static bool IsTypeName(std::string_view type);
  // begins_with, contains, attribute_exists, attribute_not_exists, attribute_type.
  Result<Condition> ParseFunctionCondition(const std::string& function);
  // `attribute_exists(a) = true` and the like: a function's truth compared with a boolean literal
  // (recorded against AWS: behaviours-to-match D7).
  Result<Condition> ComparedToBoolean(Condition call);
  // A path, a literal or parameter, or size(path). `depth` is the literal's nesting so far.
  Result<Operand> ParseOperand(int depth);
};

}  // namespace ddbd::partiql
