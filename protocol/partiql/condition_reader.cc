#include "protocol/partiql/condition_reader.h"

#include <string>
#include <utility>

#include "protocol/ascii.h"
#include "protocol/partiql/keywords.h"
#include "protocol/partiql/messages.h"
#include "protocol/partiql/parser.h"

namespace ddbd::partiql {
namespace {

using Comparator = Condition::Comparator;

Condition Combine(Condition::Kind kind, Condition left, Condition right) {
  if (left.kind == kind) {
    left.children.push_back(std::move(right));
    return left;
  }
  Condition combined;
  combined.kind = kind;
  combined.children.push_back(std::move(left));
  combined.children.push_back(std::move(right));
  return combined;
}

Operand PathOperand(DocumentPath path) {
  Operand operand;
  operand.kind = Operand::Kind::kPath;
  operand.path = std::move(path);
  return operand;
}

}  // namespace

Result<Condition> ConditionReader::ParseInfix(int level, int depth) {
  static constexpr std::pair<std::string_view, Condition::Kind> kLevels[] = {
      {"OR", Condition::Kind::kOr}, {"AND", Condition::Kind::kAnd}};
  const auto& [keyword, kind] = kLevels[level];
  auto left = level == 0 ? ParseInfix(1, depth) : ParseNot(depth);
  if (!left.ok()) return left;
  while (AcceptKeyword(keyword)) {
    if (AtClauseEnd()) return Malformed(kMissingRightHandSide);
    auto right = level == 0 ? ParseInfix(1, depth) : ParseNot(depth);
    if (!right.ok()) return right;
    left = Combine(kind, std::move(left).value(), std::move(right).value());
  }
  return left;
}

Result<Condition> ConditionReader::ParseNot(int depth) {
  if (!AcceptKeyword("NOT")) return ParsePredicate(depth);
  if (depth + 1 > kMaxParseDepth) return Malformed("");
  auto child = ParseNot(depth + 1);
  if (!child.ok()) return child;
  Condition negated;
  negated.kind = Condition::Kind::kNot;
  negated.children.push_back(std::move(child).value());
  return negated;
}

Result<Condition> ConditionReader::ParsePredicate(int depth) {
  if (!AcceptSymbol("(")) return ParseSimplePredicate();
  if (depth + 1 > kMaxParseDepth) return Malformed("");
  auto inner = ParseInfix(0, depth + 1);
  if (inner.ok() && !AcceptSymbol(")")) return Malformed(kUnexpectedToken);
  return inner;
}

Result<Condition> ConditionReader::ParseSimplePredicate() {
  const std::string function = PeekFunction();
  if (!function.empty() && function != "SIZE") {
    auto call = ParseFunctionCondition(function);
    if (!call.ok()) return call;
    return ComparedToBoolean(std::move(call).value());
  }
  auto subject = ParseOperand(0);
  if (!subject.ok()) return subject.error();
  return ParseComparison(std::move(subject).value());
}

Result<Condition> ConditionReader::ParseComparison(Operand subject) {
  static constexpr std::pair<std::string_view, Comparator> kComparators[] = {
      {"=", Comparator::kEq}, {"<>", Comparator::kNe}, {"!=", Comparator::kNe},
      {"<", Comparator::kLt}, {"<=", Comparator::kLe}, {">", Comparator::kGt},
      {">=", Comparator::kGe}};
  for (const auto& [symbol, comparator] : kComparators) {
    if (!AcceptSymbol(symbol)) continue;
    auto other = ParseOperand(0);
    if (!other.ok()) return other.error();
    Condition compare;
    compare.kind = Condition::Kind::kCompare;
    compare.comparator = comparator;
    compare.operands = {std::move(subject), std::move(other).value()};
    if (comparator != Comparator::kEq && comparator != Comparator::kNe) {
      if (Status ordered = CheckOrdered(compare.operands, symbol); !ordered.ok()) {
        return ordered.error();
      }
    }
    return compare;
  }
  if (AcceptKeyword("IS")) return ParseIs(std::move(subject));
  const bool negated = AcceptKeyword("NOT");
  Result<Condition> predicate = Malformed(kUnexpectedToken);
  if (AcceptKeyword("BETWEEN")) {
    predicate = ParseBetween(std::move(subject));
  } else if (AcceptKeyword("IN")) {
    predicate = ParseIn(std::move(subject));
  } else if (negated) {
    return Unexpected();
  } else {
    return Error::Validation("WHERE clause must contain an expression that resolves to a boolean");
  }
  if (!predicate.ok() || !negated) return predicate;
  Condition negation;
  negation.kind = Condition::Kind::kNot;
  negation.children.push_back(std::move(predicate).value());
  return negation;
}

Result<Condition> ConditionReader::ParseBetween(Operand subject) {
  auto low = ParseOperand(0);
  if (!low.ok()) return low.error();
  if (!AcceptKeyword("AND")) return Unexpected();
  auto high = ParseOperand(0);
  if (!high.ok()) return high.error();
  Condition between;
  between.kind = Condition::Kind::kBetween;
  between.operands = {std::move(subject), std::move(low).value(), std::move(high).value()};
  if (Status ordered = CheckOrdered(between.operands, "BETWEEN"); !ordered.ok()) {
    return ordered.error();
  }
  return between;
}

Status ConditionReader::CheckOrdered(const std::vector<Operand>& operands, std::string_view op) {
  for (const Operand& operand : operands) {
    if (operand.kind != Operand::Kind::kValue) continue;
    const AttributeType type = operand.value.type;
    if (type == AttributeType::kS || type == AttributeType::kN || type == AttributeType::kB) {
      continue;
    }
    return Error::Validation(
        "Incorrect operand type for operator or function; operator or function: " +
        std::string(op) + ", operand type: " + std::string(TypeName(type)));
  }
  return Ok{};
}

Result<Condition> ConditionReader::ParseIn(Operand subject) {
  static constexpr std::string_view kInvalidIn =
      "IN operator must have a left hand argument of type Variable Reference and right hand "
      "argument of type Seq with at least one member";
  const bool bracket = AcceptSymbol("[");
  if (!bracket && !AcceptSymbol("(")) return Error::Validation(std::string(kInvalidIn));
  Condition in;
  in.kind = Condition::Kind::kIn;
  in.operands.push_back(std::move(subject));
  if (!AcceptSymbol(bracket ? "]" : ")")) {
    do {
      auto member = ParseOperand(0);
      if (!member.ok()) return member.error();
      in.operands.push_back(std::move(member).value());
    } while (AcceptSymbol(","));
    if (!AcceptSymbol(bracket ? "]" : ")")) return Malformed(kUnexpectedToken);
  }
  if (in.operands.size() < 2 || in.operands[0].kind != Operand::Kind::kPath) {
    return Error::Validation(std::string(kInvalidIn));
  }
  return in;
}

Result<Condition> ConditionReader::ParseIs(Operand subject) {
  const bool negated = AcceptKeyword("NOT");
  if (Peek().kind != TokenKind::kName) return Malformed(kExpectedTypeName);
  const std::string type = AsciiUpper(Next().text);
  if (subject.kind != Operand::Kind::kPath) {
    return Error::Validation(
        "The left hand side argument to IS must be a Variable Reference, Literal, or Path");
  }
  Condition is;
  is.operands.push_back(std::move(subject));
  if (type == "MISSING") {
    is.kind = negated ? Condition::Kind::kAttributeExists : Condition::Kind::kAttributeNotExists;
    return is;
  }
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"NULL", "NULL"}, {"BOOLEAN", "BOOL"}, {"BOOL", "BOOL"}, {"BLOB", "B"}, {"STRING", "S"},
      {"NUMERIC", "N"}, {"STRUCT", "M"},     {"TUPLE", "M"},   {"LIST", "L"}};
  for (const auto& [name, dynamodb_type] : kTypes) {
    if (type != name) continue;
    is.kind = Condition::Kind::kAttributeType;
    Operand type_name;
    type_name.kind = Operand::Kind::kValue;
    type_name.value = AttributeValue::String(std::string(dynamodb_type));
    is.operands.push_back(std::move(type_name));
    if (!negated) return is;
    Condition negation;
    negation.kind = Condition::Kind::kNot;
    negation.children.push_back(std::move(is));
    return negation;
  }
  if (IsTypeName(type)) return Error::Validation(UnsupportedIsType(type));
  return Malformed(kExpectedTypeName);
}

bool ConditionReader::IsTypeName(std::string_view type) {
  static constexpr std::string_view kOtherTypes[] = {
      "INT",  "INTEGER", "INT2",   "INT4", "INT8",      "SMALLINT", "BIGINT", "DECIMAL",
      "REAL", "FLOAT",   "DOUBLE", "CHAR", "CHARACTER", "VARCHAR",  "SYMBOL", "CLOB",
      "BAG",  "SEXP",    "DATE",   "TIME", "TIMESTAMP", "ANY",      "DEC"};
  for (std::string_view other : kOtherTypes) {
    if (type == other) return true;
  }
  return false;
}

Result<Condition> ConditionReader::ParseFunctionCondition(const std::string& function) {
  struct Shape {
    std::string_view name;
    Condition::Kind kind;
    int operands;
  };
  static constexpr Shape kFunctions[] = {
      {"BEGINS_WITH", Condition::Kind::kBeginsWith, 2},
      {"CONTAINS", Condition::Kind::kContains, 2},
      {"ATTRIBUTE_EXISTS", Condition::Kind::kAttributeExists, 1},
      {"ATTRIBUTE_NOT_EXISTS", Condition::Kind::kAttributeNotExists, 1},
      {"ATTRIBUTE_TYPE", Condition::Kind::kAttributeType, 2},
  };
  const Shape* shape = nullptr;
  for (const Shape& candidate : kFunctions) {
    if (candidate.name == function) shape = &candidate;
  }
  if (shape == nullptr) return Error::Validation(UnrecognizedFunction(Peek()));
  Next();
  Next();
  Condition call;
  call.kind = shape->kind;
  // Every operand is read before their number and kinds are judged (recorded against AWS:
  // behaviours-to-match D3).
  if (!PeekSymbol(")")) {
    do {
      auto operand = ParseOperand(0);
      if (!operand.ok()) return operand.error();
      call.operands.push_back(std::move(operand).value());
    } while (AcceptSymbol(","));
  }
  if (!AcceptSymbol(")")) return Malformed(kUnexpectedToken);
  if (call.operands.size() != static_cast<size_t>(shape->operands)) {
    return Error::Validation(OperandCount(shape->name, call.operands.size()));
  }
  if (shape->operands == 1 && call.operands[0].kind != Operand::Kind::kPath) {
    return Error::Validation(RequiresPath(shape->name));
  }
  return call;
}

Result<Condition> ConditionReader::ComparedToBoolean(Condition call) {
  bool equal = true;
  if (PeekSymbol("<>") || PeekSymbol("!=")) {
    equal = false;
  } else if (!PeekSymbol("=")) {
    return call;
  }
  const Token& literal = Peek(1);
  const std::string upper = literal.kind == TokenKind::kName ? AsciiUpper(literal.text) : "";
  if (upper != "TRUE" && upper != "FALSE") return call;
  Next();
  Next();
  if (equal == (upper == "TRUE")) return call;
  Condition negation;
  negation.kind = Condition::Kind::kNot;
  negation.children.push_back(std::move(call));
  return negation;
}

Result<Operand> ConditionReader::ParseOperand(int depth) {
  const Token& token = Peek();
  Operand operand;
  if (token.kind == TokenKind::kName && PeekSymbol("(", 1)) {
    if (AsciiUpper(token.text) != "SIZE") return Error::Validation(UnrecognizedFunction(token));
    Next();
    Next();
    auto path = ParsePath();
    if (!path.ok()) return path.error();
    if (!AcceptSymbol(")")) return Malformed(kUnexpectedToken);
    operand.kind = Operand::Kind::kSize;
    operand.path = std::move(path).value();
    return operand;
  }
  if (token.kind == TokenKind::kQuotedName ||
      (token.kind == TokenKind::kName && !IsReservedWord(token.text))) {
    auto path = ParsePath();
    if (!path.ok()) return path.error();
    return PathOperand(std::move(path).value());
  }
  if (token.kind == TokenKind::kName) {
    const std::string upper = AsciiUpper(token.text);
    if (upper == "MISSING") return Error::Validation(std::string(kMissingNeedsIs));
    if (upper != "TRUE" && upper != "FALSE" && upper != "NULL") return Unexpected();
  }
  auto value = ParseValue("root", depth);
  if (!value.ok()) return value.error();
  operand.kind = Operand::Kind::kValue;
  operand.value = std::move(value).value();
  return operand;
}

}  // namespace ddbd::partiql
