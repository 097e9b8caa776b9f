#include "protocol/partiql/parser.h"

#include <string>
#include <utility>

#include "protocol/ascii.h"
#include "protocol/partiql/condition_reader.h"
#include "protocol/partiql/cursor.h"
#include "protocol/partiql/keywords.h"
#include "protocol/partiql/lexer.h"
#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

class Parser : public ConditionReader {
 public:
  using ConditionReader::ConditionReader;

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
};

}  // namespace

Result<Statement> Parse(std::string_view text, const std::vector<AttributeValue>& parameters) {
  auto tokens = Tokenize(text);
  if (!tokens.ok()) return tokens.error();
  return Parser(std::move(tokens).value(), parameters).Run();
}

}  // namespace ddbd::partiql
