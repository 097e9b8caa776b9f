#include "protocol/partiql/parser.h"

#include <string>
#include <utility>

#include "protocol/ascii.h"
#include "protocol/partiql/cursor.h"
#include "protocol/partiql/keywords.h"
#include "protocol/partiql/lexer.h"
#include "protocol/partiql/messages.h"

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

class Parser : public Cursor {
 public:
  using Cursor::Cursor;

  Result<Statement> Run() {
    Statement statement;
    Status parsed = Ok{};
    if (AcceptKeyword("SELECT")) {
      parsed = ParseSelect(statement);
    } else if (AcceptKeyword("INSERT")) {
      parsed = ParseInsert(statement);
    } else if (AcceptKeyword("UPDATE")) {
      parsed = ParseUpdate(statement);
    } else if (AcceptKeyword("DELETE")) {
      parsed = ParseDelete(statement);
    } else if (AcceptKeyword("EXISTS")) {
      parsed = ParseExists(statement);
    } else if (AcceptKeyword("FROM")) {
      parsed = ParseFromFirstUpdate(statement);
    } else {
      return Malformed(kExpectedDataManipulation);
    }
    if (!parsed.ok()) return parsed.error();
    AcceptSymbol(";");
    if (Peek().kind != TokenKind::kEnd) return Malformed(kUnexpectedToken);
    if (Status counted = CheckParameterCount(); !counted.ok()) return counted.error();
    return statement;
  }

 private:
  // FROM's table and, where allowed, "."index; `missing` is the detail when no name follows.
  Status ParseSource(Statement& statement, std::string_view missing) {
    if (!PeekName()) return Malformed(missing);
    auto table = ParseName();
    if (!table.ok()) return table.error();
    statement.table_name = std::move(table).value();
    if (AcceptSymbol(".")) {
      auto index = ParseName();
      if (!index.ok()) return index.error();
      statement.index_name = std::move(index).value();
      if (PeekSymbol(".")) {
        return Error::Validation("A path may contain at most 2 components in the FROM clause");
      }
    }
    return Ok{};
  }

  // A name or AS right after the table is an alias, which DynamoDB refuses by name.
  Status RefuseAlias() {
    const Token& next = Peek();
    if (next.kind == TokenKind::kQuotedName ||
        (next.kind == TokenKind::kName &&
         (EqualsIgnoringCase(next.text, "AS") || !IsReservedWord(next.text)))) {
      return Error::Validation(std::string(kAliasing));
    }
    return Ok{};
  }

  Status ParseSelect(Statement& statement) {
    if (AcceptSymbol("*")) {
      if (PeekSymbol(",")) return Error::Validation(std::string(kStarAndOthers));
    } else {
      do {
        if (PeekSymbol("*")) return Error::Validation(std::string(kStarAndOthers));
        // A function call is no path (recorded against AWS: behaviours-to-match D3).
        if (!PeekFunction().empty()) {
          return Error::Validation("Unexpected path component" + At(Peek()));
        }
        auto path = ParsePath();
        if (!path.ok()) return path.error();
        statement.projection.push_back(std::move(path).value());
      } while (AcceptSymbol(","));
    }
    if (!AcceptKeyword("FROM")) return Unexpected();
    if (Status source = ParseSource(statement, kUnexpectedTerm); !source.ok()) return source;
    if (Status alias = RefuseAlias(); !alias.ok()) return alias;
    if (AcceptKeyword("WHERE")) {
      auto where = ParseInfix(0, 0);
      if (!where.ok()) return where.error();
      statement.where = std::move(where).value();
    }
    if (AcceptKeyword("ORDER")) {
      if (!AcceptKeyword("BY")) return Unexpected();
      auto key = ParseName();
      if (!key.ok()) return key.error();
      statement.order_by = std::move(key).value();
      if (AcceptKeyword("DESC")) {
        statement.descending = true;
      } else {
        AcceptKeyword("ASC");
      }
    }
    return Ok{};
  }

  Status ParseInsert(Statement& statement) {
    statement.kind = Statement::Kind::kInsert;
    if (!AcceptKeyword("INTO")) return Unexpected();
    if (Status source = ParseSource(statement, kExpectedIdentifier); !source.ok()) return source;
    if (!AcceptKeyword("VALUE")) return Malformed(kUnexpectedToken);
    if (PeekSymbol("<<")) return Error::Validation(std::string(kInsertMultiple));
    auto item = ParseItem();
    if (!item.ok()) return item.error();
    statement.item = std::move(item).value();
    if (PeekKeyword("RETURNING")) return Error::Validation(std::string(kInsertReturning));
    return Ok{};
  }

  Status ParseUpdate(Statement& statement) {
    statement.kind = Statement::Kind::kUpdate;
    if (Status source = ParseSource(statement, kExpectedIdentifier); !source.ok()) return source;
    if (Status alias = RefuseAlias(); !alias.ok()) return alias;
    if (Status clauses = ParseSetAndRemove(statement); !clauses.ok()) return clauses;
    return ParseWhereAndReturning(statement);
  }

  // FROM "T" WHERE ... SET ... REMOVE ... [RETURNING ...]: the same UPDATE, its WHERE first
  // (recorded against AWS: behaviours-to-match D5).
  Status ParseFromFirstUpdate(Statement& statement) {
    statement.kind = Statement::Kind::kUpdate;
    if (Status source = ParseSource(statement, kExpectedIdentifier); !source.ok()) return source;
    if (Status alias = RefuseAlias(); !alias.ok()) return alias;
    if (Status where = ParseWhere(statement); !where.ok()) return where;
    if (Status clauses = ParseSetAndRemove(statement); !clauses.ok()) return clauses;
    return ParseReturning(statement);
  }

  // UPDATE's SET and REMOVE clauses, in any order and number; at least one action.
  Status ParseSetAndRemove(Statement& statement) {
    while (true) {
      if (AcceptKeyword("SET")) {
        do {
          auto action = ParseSetAction();
          if (!action.ok()) return action.error();
          statement.actions.push_back(std::move(action).value());
        } while (AcceptSymbol(","));
      } else if (AcceptKeyword("REMOVE")) {
        do {
          auto path = ParsePath();
          if (!path.ok()) return path.error();
          UpdateAction action;
          action.kind = UpdateAction::Kind::kRemove;
          action.path = std::move(path).value();
          statement.actions.push_back(std::move(action));
        } while (AcceptSymbol(","));
      } else if (PeekKeyword("ADD") || PeekKeyword("DELETE")) {
        return Error::Validation(std::string(kUpdateOnlySetRemove));
      } else {
        break;
      }
    }
    if (statement.actions.empty()) return Unexpected();
    return Ok{};
  }

  Status ParseDelete(Statement& statement) {
    statement.kind = Statement::Kind::kDelete;
    if (!AcceptKeyword("FROM")) return Unexpected();
    if (Status source = ParseSource(statement, kExpectedIdentifier); !source.ok()) return source;
    if (Status alias = RefuseAlias(); !alias.ok()) return alias;
    if (Status rest = ParseWhereAndReturning(statement); !rest.ok()) return rest;
    if (statement.returning != ReturnValues::kNone &&
        statement.returning != ReturnValues::kAllOld) {
      const bool modified = statement.returning == ReturnValues::kUpdatedOld ||
                            statement.returning == ReturnValues::kUpdatedNew;
      const bool old = statement.returning == ReturnValues::kUpdatedOld;
      return Error::Validation(InvalidDeleteReturning(std::string(modified ? "MODIFIED" : "ALL") +
                                                      (old ? " OLD *" : " NEW *")));
    }
    return Ok{};
  }

  // EXISTS(SELECT * FROM "T" WHERE ...): a transaction's condition check.
  Status ParseExists(Statement& statement) {
    if (!AcceptSymbol("(")) return Unexpected();
    if (!AcceptKeyword("SELECT")) return Malformed(kExpectedDataManipulation);
    if (Status select = ParseSelect(statement); !select.ok()) return select;
    statement.kind = Statement::Kind::kExists;
    if (!AcceptSymbol(")")) return Malformed(kUnexpectedToken);
    return Ok{};
  }

  // UPDATE's and DELETE's WHERE (which must name the key) and RETURNING.
  Status ParseWhereAndReturning(Statement& statement) {
    if (Status where = ParseWhere(statement); !where.ok()) return where;
    return ParseReturning(statement);
  }

  Status ParseWhere(Statement& statement) {
    if (!AcceptKeyword("WHERE")) {
      if (AtClauseEnd()) return Error::Validation(std::string(kIncompleteKey));
      return Malformed(kUnexpectedToken);
    }
    auto where = ParseInfix(0, 0);
    if (!where.ok()) return where.error();
    statement.where = std::move(where).value();
    return Ok{};
  }

  Status ParseReturning(Statement& statement) {
    if (!AcceptKeyword("RETURNING")) return Ok{};
    const bool all = AcceptKeyword("ALL");
    if (!all && !AcceptKeyword("MODIFIED")) return Unexpected();
    const bool old = AcceptKeyword("OLD");
    if (!old && !AcceptKeyword("NEW")) return Unexpected();
    if (!AcceptSymbol("*")) {
      return Error::Validation(
          "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
    }
    statement.returning = all ? (old ? ReturnValues::kAllOld : ReturnValues::kAllNew)
                              : (old ? ReturnValues::kUpdatedOld : ReturnValues::kUpdatedNew);
    return Ok{};
  }

  // path = value, path = value + value, list_append(...), if_not_exists(...), or
  // set_add(path, <<...>>) / set_delete(path, <<...>>), DynamoDB's ADD and DELETE.
  Result<UpdateAction> ParseSetAction() {
    auto path = ParsePath();
    if (!path.ok()) return path.error();
    if (!AcceptSymbol("=")) return Unexpected();
    UpdateAction action;
    action.path = std::move(path).value();
    const std::string function = PeekFunction();
    if (function == "SET_ADD" || function == "SET_DELETE") {
      return ParseSetFunction(std::move(action), function == "SET_ADD");
    }
    auto value = ParseUpdateValue();
    if (!value.ok()) return value.error();
    action.value = std::move(value).value();
    return action;
  }

  // set_add(path, <<...>>) / set_delete(...): every argument is read before any is judged, so
  // the texts say what DynamoDB says of each (recorded against AWS: behaviours-to-match D3).
  Result<UpdateAction> ParseSetFunction(UpdateAction action, bool add) {
    const std::string_view op = add ? "ADD" : "DELETE";
    const Token name = Next();  // PeekFunction saw the parenthesis
    Next();
    std::vector<Operand> arguments;
    Token first;
    if (!PeekSymbol(")")) {
      first = Peek();
      do {
        bag_in_set_function_ = true;
        auto operand = ParseOperand(1);
        bag_in_set_function_ = false;
        if (!operand.ok()) return operand.error();
        arguments.push_back(std::move(operand).value());
      } while (AcceptSymbol(","));
    }
    if (!AcceptSymbol(")")) return Malformed(kUnexpectedToken);
    if (arguments.size() != 2) return Error::Validation(SetFunctionArity(op, name));
    if (arguments[0].kind != Operand::Kind::kPath || arguments[0].path != action.path) {
      return Error::Validation(SetFunctionTarget(op, name));
    }
    const AttributeType type = arguments[1].value.type;
    if (arguments[1].kind != Operand::Kind::kValue ||
        (type != AttributeType::kSS && type != AttributeType::kNS && type != AttributeType::kBS)) {
      return Error::Validation(SetFunctionOperand(op, first));
    }
    action.kind = add ? UpdateAction::Kind::kAdd : UpdateAction::Kind::kDelete;
    action.operand = std::move(arguments[1].value);
    return action;
  }

  Result<UpdateValue> ParseUpdateValue() {
    auto first = ParseUpdateTerm();
    if (!first.ok()) return first.error();
    const bool plus = PeekSymbol("+");
    if (!plus && !PeekSymbol("-")) return first;
    Next();
    auto second = ParseUpdateTerm();
    if (!second.ok()) return second.error();
    UpdateValue sum;
    sum.kind = plus ? UpdateValue::Kind::kPlus : UpdateValue::Kind::kMinus;
    sum.args.push_back(std::move(first).value());
    sum.args.push_back(std::move(second).value());
    return sum;
  }

  // An operand, list_append(a, b) or if_not_exists(path, value); neither function nests here
  // beyond one level, as in DynamoDB's update expressions.
  Result<UpdateValue> ParseUpdateTerm() {
    const std::string function = PeekFunction();
    UpdateValue term;
    if (function == "LIST_APPEND" || function == "IF_NOT_EXISTS") {
      Next();
      Next();
      term.kind = function == "LIST_APPEND" ? UpdateValue::Kind::kListAppend
                                            : UpdateValue::Kind::kIfNotExists;
      for (int i = 0; i < 2; ++i) {
        if (i == 1 && !AcceptSymbol(",")) return Malformed(kUnexpectedTerm);
        auto operand = ParseOperand(1);
        if (!operand.ok()) return operand.error();
        UpdateValue& arg = term.args.emplace_back();
        arg.operand = std::move(operand).value();
      }
      if (!AcceptSymbol(")")) return Malformed(kUnexpectedToken);
      return term;
    }
    if (!function.empty() && function != "SIZE") {
      return Error::Validation(UnrecognizedFunction(Peek()));
    }
    const Token start = Peek();
    auto operand = ParseOperand(0);
    if (!operand.ok()) return operand.error();
    if (operand.value().kind == Operand::Kind::kSize) {
      return Error::Validation(UnrecognizedFunction(start));
    }
    term.operand = std::move(operand).value();
    return term;
  }

  // One level of infix operators: OR (level 0) over AND (level 1) over NOT and predicates, each
  // level a run of operands joined by its keyword.
  Result<Condition> ParseInfix(int level, int depth) {
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

  Result<Condition> ParseNot(int depth) {
    if (!AcceptKeyword("NOT")) return ParsePredicate(depth);
    if (depth + 1 > kMaxParseDepth) return Malformed("");
    auto child = ParseNot(depth + 1);
    if (!child.ok()) return child;
    Condition negated;
    negated.kind = Condition::Kind::kNot;
    negated.children.push_back(std::move(child).value());
    return negated;
  }

  // The only step of the recursion that nests: its frame holds nothing else (a predicate's
  // operands are read in ParseSimplePredicate's), so 64 levels fit small thread stacks.
  Result<Condition> ParsePredicate(int depth) {
    if (!AcceptSymbol("(")) return ParseSimplePredicate();
    if (depth + 1 > kMaxParseDepth) return Malformed("");
    auto inner = ParseInfix(0, depth + 1);
    if (inner.ok() && !AcceptSymbol(")")) return Malformed(kUnexpectedToken);
    return inner;
  }

  Result<Condition> ParseSimplePredicate() {
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

  // What follows a predicate's first operand: a comparison, [NOT] BETWEEN, [NOT] IN, IS.
  Result<Condition> ParseComparison(Operand subject) {
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
      return Error::Validation(
          "WHERE clause must contain an expression that resolves to a boolean");
    }
    if (!predicate.ok() || !negated) return predicate;
    Condition negation;
    negation.kind = Condition::Kind::kNot;
    negation.children.push_back(std::move(predicate).value());
    return negation;
  }

  Result<Condition> ParseBetween(Operand subject) {
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

  // The ordering operators take only strings, numbers and binaries; a value of another type
  // (NULL too) is refused, as DynamoDB refuses it (behaviours-to-match D4, recorded); = and <>
  // take every type.
  static Status CheckOrdered(const std::vector<Operand>& operands, std::string_view op) {
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

  // x IN [a, b] or x IN (a, b): a path on the left, at least one value on the right.
  Result<Condition> ParseIn(Operand subject) {
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

  // IS [NOT] MISSING | NULL | a type: attribute_not_exists, attribute_type(NULL) and so on.
  Result<Condition> ParseIs(Operand subject) {
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

  static bool IsTypeName(std::string_view type) {
    static constexpr std::string_view kOtherTypes[] = {
        "INT",  "INTEGER", "INT2",   "INT4", "INT8",      "SMALLINT", "BIGINT", "DECIMAL",
        "REAL", "FLOAT",   "DOUBLE", "CHAR", "CHARACTER", "VARCHAR",  "SYMBOL", "CLOB",
        "BAG",  "SEXP",    "DATE",   "TIME", "TIMESTAMP", "ANY",      "DEC"};
    for (std::string_view other : kOtherTypes) {
      if (type == other) return true;
    }
    return false;
  }

  // begins_with, contains, attribute_exists, attribute_not_exists, attribute_type.
  Result<Condition> ParseFunctionCondition(const std::string& function) {
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

  // `attribute_exists(a) = true` and the like: a function's truth compared with a boolean literal
  // (recorded against AWS: behaviours-to-match D7).
  Result<Condition> ComparedToBoolean(Condition call) {
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

  // A path, a literal or parameter, or size(path). `depth` is the literal's nesting so far.
  Result<Operand> ParseOperand(int depth) {
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
};

}  // namespace

Result<Statement> Parse(std::string_view text, const std::vector<AttributeValue>& parameters) {
  auto tokens = Tokenize(text);
  if (!tokens.ok()) return tokens.error();
  return Parser(std::move(tokens).value(), parameters).Run();
}

}  // namespace ddbd::partiql
