#include "protocol/expression/update_parser.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>

namespace ddbd {
namespace {

constexpr size_t kMaxUpdateExpressionBytes = 4096;
constexpr size_t kMaxUpdateOperators = 300;  // + and - and functions, as in condition expressions
constexpr size_t kMaxNesting = 32;           // '(' and function calls around one SET operand
constexpr const char* kUpdateExpressionPrefix = "Invalid UpdateExpression: ";

// DynamoDB's long type names, used in ADD/DELETE operand-type messages.
std::string LongTypeName(AttributeType type) {
  switch (type) {
    case AttributeType::kS:
      return "STRING";
    case AttributeType::kN:
      return "NUMBER";
    case AttributeType::kB:
      return "BINARY";
    case AttributeType::kBool:
      return "BOOLEAN";
    case AttributeType::kNull:
      return "NULL";
    case AttributeType::kM:
      return "MAP";
    case AttributeType::kL:
      return "LIST";
    case AttributeType::kSS:
      return "STRING_SET";
    case AttributeType::kNS:
      return "NUMBER_SET";
    case AttributeType::kBS:
      return "BINARY_SET";
  }
  return "NULL";
}

// Whether ADD's or DELETE's operand type fits, the detail of DynamoDB's message when not.
std::optional<std::string> AddDeleteOperandMisfit(UpdateAction::Kind kind,
                                                  const AttributeValue& operand) {
  const bool is_set = operand.type == AttributeType::kSS || operand.type == AttributeType::kNS ||
                      operand.type == AttributeType::kBS;
  const bool add = kind == UpdateAction::Kind::kAdd;
  if (is_set || (add && operand.type == AttributeType::kN)) return std::nullopt;
  return std::string("Incorrect operand type for operator or function; operator: ") +
         (add ? "ADD" : "DELETE") + ", operand type: " + LongTypeName(operand.type) +
         ", typeSet: " + (add ? "ALLOWED_FOR_ADD_OPERAND" : "ALLOWED_FOR_DELETE_OPERAND");
}

// No two actions may touch overlapping paths, or meet as a map key and a list index: the detail
// of DynamoDB's message for the first pair that does.
std::optional<std::string> OverlappingPaths(const std::vector<UpdateAction>& actions) {
  for (size_t i = 0; i < actions.size(); ++i) {
    for (size_t j = i + 1; j < actions.size(); ++j) {
      if (auto clash = PathsClash(actions[i].path, actions[j].path)) return clash;
    }
  }
  return std::nullopt;
}

class UpdateParser {
 public:
  UpdateParser(std::string_view text, ExpressionNames& names, ExpressionValues& values,
               Binding binding)
      : tokens_(text, "UpdateExpression"), names_(names), values_(values), binding_(binding) {}

  Result<std::vector<UpdateAction>> Parse() {
    std::vector<UpdateAction> actions;
    std::array<bool, 4> seen{};
    do {
      const Token& keyword = tokens_.Peek();
      UpdateAction::Kind kind;
      if (tokens_.AcceptKeyword("SET"))
        kind = UpdateAction::Kind::kSet;
      else if (tokens_.AcceptKeyword("REMOVE"))
        kind = UpdateAction::Kind::kRemove;
      else if (tokens_.AcceptKeyword("ADD"))
        kind = UpdateAction::Kind::kAdd;
      else if (tokens_.AcceptKeyword("DELETE"))
        kind = UpdateAction::Kind::kDelete;
      else
        return tokens_.SyntaxError();
      bool& clause_seen = seen[static_cast<size_t>(kind)];
      if (clause_seen) {
        std::string upper(keyword.text);
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        deferred_.Semantic(tokens_.Invalid("The \"" + upper +
                                           "\" section can only be used once in an update "
                                           "expression;"));
      }
      clause_seen = true;
      do {
        auto action = ParseAction(kind);
        if (!action.ok()) return action.error();
        actions.push_back(std::move(action).value());
      } while (tokens_.Accept(","));
    } while (!tokens_.AtEnd());
    if (Status deferred = deferred_.First(); !deferred.ok()) return deferred.error();
    if (binding_ == Binding::kNow) {
      if (auto overlap = OverlappingPaths(actions)) return tokens_.Invalid(*overlap);
    }
    return actions;
  }

 private:
  Result<UpdateAction> ParseAction(UpdateAction::Kind kind) {
    UpdateAction action;
    action.kind = kind;
    auto path = ParseDocumentPath(tokens_, names_, deferred_);
    if (!path.ok()) return path.error();
    action.path = std::move(path).value();
    if (kind == UpdateAction::Kind::kRemove) return action;
    if (kind == UpdateAction::Kind::kSet) {
      if (!tokens_.Accept("=")) return tokens_.SyntaxError();
      auto value = ParseSetValue();
      if (!value.ok()) return value.error();
      action.value = std::move(value).value();
      return action;
    }
    const Token& token = tokens_.Peek();
    if (token.kind != TokenKind::kValuePlaceholder) return tokens_.SyntaxError();
    tokens_.Next();
    action.operand = values_.Resolve(token.text, tokens_, deferred_);
    CheckAddDeleteOperand(kind, action.operand);
    return action;
  }

  void CheckAddDeleteOperand(UpdateAction::Kind kind, const AttributeValue& operand) {
    if (binding_ == Binding::kLater) return;
    const std::optional<std::string> misfit = AddDeleteOperandMisfit(kind, operand);
    if (!misfit) return;
    if (operand.type == AttributeType::kNull && operand.scalar.empty() &&
        deferred_.undefined_value) {
      return;  // an undefined placeholder is reported as such
    }
    deferred_.Semantic(tokens_.Invalid(*misfit));
  }

  // operand, or operand + operand, or operand - operand.
  Result<UpdateValue> ParseSetValue() {
    auto left = ParseSetOperand();
    if (!left.ok()) return left;
    const bool plus = tokens_.Accept("+");
    if (!plus && !tokens_.Accept("-")) return left;
    if (!CountOperator()) return TooManyOperators();
    auto right = ParseSetOperand();
    if (!right.ok()) return right;
    parenthesized_ = false;  // the sum is not a group, whatever its operands are
    UpdateValue value;
    value.kind = plus ? UpdateValue::Kind::kPlus : UpdateValue::Kind::kMinus;
    value.args.push_back(std::move(left).value());
    value.args.push_back(std::move(right).value());
    return value;
  }

  // A path, a :value, a function call, or a SET value in parentheses (`SET a = (b - :v)`, which
  // libraries such as ElectroDB generate). Calls and parentheses nest at most kMaxNesting deep,
  // which keeps this recursion's stack small; deeper is a syntax error at the '(' or the call
  // (an unknown or condition-only function still gets its own message).
  Result<UpdateValue> ParseSetOperand() {
    UpdateValue value;
    const Token& token = tokens_.Peek();
    parenthesized_ = false;
    if (token.kind == TokenKind::kValuePlaceholder) {
      tokens_.Next();
      value.operand.kind = Operand::Kind::kValue;
      value.operand.value = values_.Resolve(token.text, tokens_, deferred_);
      return value;
    }
    if (token.kind == TokenKind::kSymbol && token.text == "(") {
      if (nesting_ == kMaxNesting) return tokens_.SyntaxError();
      tokens_.Next();
      ++nesting_;
      auto inner = ParseSetValue();
      if (!inner.ok()) return inner;
      if (!tokens_.Accept(")")) return tokens_.SyntaxError();
      --nesting_;
      if (parenthesized_) {
        deferred_.Semantic(tokens_.Invalid("The expression has redundant parentheses;"));
      }
      parenthesized_ = true;
      return inner;
    }
    if (token.kind == TokenKind::kIdentifier && tokens_.Peek(1).kind == TokenKind::kSymbol &&
        tokens_.Peek(1).text == "(") {
      return ParseFunction();
    }
    if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kNamePlaceholder) {
      return tokens_.SyntaxError();
    }
    auto path = ParseDocumentPath(tokens_, names_, deferred_);
    if (!path.ok()) return path.error();
    value.operand.path = std::move(path).value();
    return value;
  }

  Result<UpdateValue> ParseFunction() {
    if (nesting_ == kMaxNesting) {
      const std::string_view name = tokens_.Peek().text;
      if (name != "if_not_exists" && name != "list_append") return UnknownFunction(name);
      return tokens_.SyntaxError();
    }
    const std::string name(tokens_.Next().text);
    tokens_.Next();  // (
    if (!CountOperator()) return TooManyOperators();
    const bool is_argument = calls_open_ > 0;
    ++nesting_;
    ++calls_open_;
    UpdateValue value;
    if (!tokens_.Accept(")")) {
      do {
        auto argument = ParseSetOperand();
        if (!argument.ok()) return argument;
        value.args.push_back(std::move(argument).value());
      } while (tokens_.Accept(","));
      if (!tokens_.Accept(")")) return tokens_.SyntaxError();
    }
    --calls_open_;
    --nesting_;
    // Only if_not_exists may be an argument of another call (`list_append(if_not_exists(a,
    // :e), :v)`); AWS's DAX client enforces the same rule with this text.
    if (is_argument && name == "list_append") {
      deferred_.Semantic(tokens_.Invalid("Only if_not_exists() function can be nested"));
    }
    parenthesized_ = false;
    if (name == "if_not_exists") {
      value.kind = UpdateValue::Kind::kIfNotExists;
    } else if (name == "list_append") {
      value.kind = UpdateValue::Kind::kListAppend;
    } else {
      deferred_.Semantic(UnknownFunction(name));
      value.args.resize(2);
      return value;
    }
    if (value.args.size() != 2) {
      deferred_.Semantic(tokens_.Invalid(
          "Incorrect number of operands for operator or function; operator or function: " + name +
          ", number of operands: " + std::to_string(value.args.size())));
      value.args.resize(2);
    } else if (value.kind == UpdateValue::Kind::kIfNotExists &&
               (value.args[0].kind != UpdateValue::Kind::kOperand ||
                value.args[0].operand.kind != Operand::Kind::kPath)) {
      deferred_.Semantic(tokens_.Invalid(
          "Operator or function requires a document path; operator or function: if_not_exists"));
    }
    return value;
  }

  // A function other than if_not_exists and list_append.
  Error UnknownFunction(std::string_view name) const {
    static constexpr std::array<std::string_view, 6> kConditionFunctions = {
        "attribute_exists", "attribute_not_exists",
        "attribute_type",   "begins_with",
        "contains",         "size"};
    const bool known = std::find(kConditionFunctions.begin(), kConditionFunctions.end(), name) !=
                       kConditionFunctions.end();
    return tokens_.Invalid((known
                                ? "The function is not allowed in an update expression; function: "
                                : "Invalid function name; function: ") +
                           std::string(name));
  }

  // As in conditions: the parse stops at the first operator over the limit.
  bool CountOperator() { return ++operators_ <= kMaxUpdateOperators; }
  Error TooManyOperators() const {
    return tokens_.Invalid("The expression contains too many operators; operator count: " +
                           std::to_string(operators_));
  }

  TokenStream tokens_;
  ExpressionNames& names_;
  ExpressionValues& values_;
  const Binding binding_;
  DeferredErrors deferred_;
  size_t operators_ = 0;
  size_t nesting_ = 0;          // '(' and calls open around the operand being parsed
  size_t calls_open_ = 0;       // calls whose arguments are being parsed
  bool parenthesized_ = false;  // the operand just parsed was a '(' group
};

}  // namespace

Result<std::vector<UpdateAction>> ParseUpdateAfresh(std::string_view text, ExpressionNames& names,
                                                    ExpressionValues& values) {
  if (text.size() > kMaxUpdateExpressionBytes) {
    return Error::Validation(std::string(kUpdateExpressionPrefix) +
                             "Expression size has exceeded the maximum allowed size; expression "
                             "size: " +
                             std::to_string(text.size()));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Error::Validation(std::string(kUpdateExpressionPrefix) +
                             "The expression can not be empty;");
  }
  return UpdateParser(text, names, values, Binding::kNow).Parse();
}

std::optional<std::vector<UpdateAction>> ParseUnboundUpdate(std::string_view text) {
  if (text.size() > kMaxUpdateExpressionBytes) return std::nullopt;
  ExpressionNames names = ExpressionNames::Unbound();
  ExpressionValues values = ExpressionValues::Unbound();
  auto parsed = UpdateParser(text, names, values, Binding::kLater).Parse();
  if (!parsed.ok()) return std::nullopt;
  return std::move(parsed).value();
}

bool BoundActionsFit(const std::vector<UpdateAction>& actions) {
  for (const UpdateAction& action : actions) {
    const bool add_or_delete =
        action.kind == UpdateAction::Kind::kAdd || action.kind == UpdateAction::Kind::kDelete;
    if (add_or_delete && AddDeleteOperandMisfit(action.kind, action.operand)) return false;
  }
  return !OverlappingPaths(actions);
}

}  // namespace ddbd
