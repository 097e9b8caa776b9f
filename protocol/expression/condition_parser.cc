#include "protocol/expression/condition_parser.h"

#include <algorithm>
#include <array>
#include <string>

namespace ddbd {
namespace {

constexpr size_t kMaxExpressionBytes = 4096;
constexpr size_t kMaxInOperands = 100;
// DynamoDB counts comparisons, BETWEEN, IN, functions that are not arguments of another, AND, OR
// and NOT (measured: 149 levels of `a<b or (...)`, 299 operators, pass; 1,000 NOTs do not).
constexpr size_t kMaxOperators = 300;
// Function calls nest only in arguments, where DynamoDB refuses every function but size(); deeper
// than this the parse stops with the error the innermost call gets, so thread stack stays bounded.
constexpr size_t kMaxFunctionNesting = 8;

// A parsed piece: either an operand (path, value, size()) or a condition.
struct Node {
  bool is_condition = false;
  bool parenthesized = false;  // directly wrapped in ( ), for the redundant-parentheses rule
  Operand operand;
  Condition condition;
};

// The functions a condition may call.
struct FunctionSpec {
  std::string_view name;
  size_t arity;
  bool is_condition;  // false: size(), an operand
  Condition::Kind kind;
};

constexpr std::array<FunctionSpec, 6> kFunctions = {{
    {"attribute_exists", 1, true, Condition::Kind::kAttributeExists},
    {"attribute_not_exists", 1, true, Condition::Kind::kAttributeNotExists},
    {"attribute_type", 2, true, Condition::Kind::kAttributeType},
    {"begins_with", 2, true, Condition::Kind::kBeginsWith},
    {"contains", 2, true, Condition::Kind::kContains},
    {"size", 1, false, Condition::Kind::kCompare},
}};

const FunctionSpec* FindFunction(std::string_view name) {
  for (const FunctionSpec& spec : kFunctions) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

bool IsComparable(const AttributeValue& value) {
  return value.type == AttributeType::kS || value.type == AttributeType::kN ||
         value.type == AttributeType::kB;
}

// DynamoDB's rendering of a literal in messages, e.g. "AttributeValue: {N:5}".
std::string RenderValue(const AttributeValue& value) {
  return "AttributeValue: {" + std::string(TypeName(value.type)) + ":" + value.scalar + "}";
}

std::string_view ComparatorSymbol(Condition::Comparator comparator) {
  switch (comparator) {
    case Condition::Comparator::kEq:
      return "=";
    case Condition::Comparator::kNe:
      return "<>";
    case Condition::Comparator::kLt:
      return "<";
    case Condition::Comparator::kLe:
      return "<=";
    case Condition::Comparator::kGt:
      return ">";
    case Condition::Comparator::kGe:
      return ">=";
  }
  return "=";
}

// The checks of a condition's operands that depend on what its placeholders are bound to (the
// values' types and order, names that make two paths one), in DynamoDB's order of report: a parse
// reports each failure (`fail` gets its detail), a kept parse bound to another request's names
// and values only needs to know that none fails (kept_parses.cc). One function for both,
// so the two cannot drift apart.
template <typename Fail>
void CheckComparable(const std::vector<Operand>& operands, std::string_view op, Fail& fail) {
  for (const Operand& operand : operands) {
    if (operand.kind == Operand::Kind::kValue && !IsComparable(operand.value) &&
        operand.value.type != AttributeType::kNull) {
      fail("Incorrect operand type for operator or function; operator or function: " +
           std::string(op) + ", operand type: " + std::string(TypeName(operand.value.type)));
    }
  }
}

template <typename Fail>
void CheckDistinct(const std::vector<Operand>& operands, std::string_view op, Fail& fail) {
  if (operands[0].kind != Operand::Kind::kPath) return;
  for (size_t i = 1; i < operands.size(); ++i) {
    if (operands[i].kind == Operand::Kind::kPath && operands[i].path == operands[0].path) {
      fail(
          "The first operand must be distinct from the remaining operands for this operator or "
          "function; operator: " +
          std::string(op) + ", first operand: " + RenderPath(operands[0].path));
    }
  }
}

template <typename Fail>
void CheckBetweenBounds(const Operand& lower, const Operand& upper, Fail& fail) {
  if (lower.kind != Operand::Kind::kValue || upper.kind != Operand::Kind::kValue) return;
  if (lower.value.type != upper.value.type || !IsComparable(lower.value)) {
    fail(
        "The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
        "operand: " +
        RenderValue(lower.value) + ", upper bound operand: " + RenderValue(upper.value));
  } else if (CompareScalars(lower.value, upper.value) > 0) {
    fail(
        "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
        "lower bound operand: " +
        RenderValue(lower.value) + ", upper bound operand: " + RenderValue(upper.value));
  }
}

template <typename Fail>
void CheckBoundOperands(Condition::Kind kind, Condition::Comparator comparator,
                        const std::vector<Operand>& operands, Fail& fail) {
  switch (kind) {
    case Condition::Kind::kCompare: {
      const std::string_view symbol = ComparatorSymbol(comparator);
      if (comparator != Condition::Comparator::kEq && comparator != Condition::Comparator::kNe) {
        CheckComparable(operands, symbol, fail);
      }
      CheckDistinct(operands, symbol, fail);
      return;
    }
    case Condition::Kind::kBetween:
      CheckComparable(operands, "BETWEEN", fail);
      CheckDistinct(operands, "BETWEEN", fail);
      CheckBetweenBounds(operands[1], operands[2], fail);
      return;
    case Condition::Kind::kIn:
      CheckDistinct(operands, "IN", fail);
      return;
    case Condition::Kind::kAttributeType: {
      // attribute_type(:v, :t) is legal: its first operand may be a literal too.
      static constexpr std::array<std::string_view, 10> kTypes = {"B",  "NULL", "SS", "BOOL", "L",
                                                                  "BS", "N",    "NS", "S",    "M"};
      const Operand& type = operands[1];
      if (type.kind != Operand::Kind::kValue || type.value.type != AttributeType::kS) {
        fail(
            "Incorrect operand type for operator or function; operator or function: "
            "attribute_type, operand type: " +
            std::string(TypeName(type.value.type)));
      } else if (std::find(kTypes.begin(), kTypes.end(), type.value.scalar) == kTypes.end()) {
        fail("Invalid attribute type name found; type: " + type.value.scalar +
             ", valid types: { B; NULL; SS; BOOL; L; BS; N; NS; S; M }");
      }
      return;
    }
    case Condition::Kind::kBeginsWith:
      for (const Operand& operand : operands) {
        if (operand.kind == Operand::Kind::kValue && operand.value.type != AttributeType::kS &&
            operand.value.type != AttributeType::kB) {
          fail(
              "Incorrect operand type for operator or function; operator or function: "
              "begins_with, operand type: " +
              std::string(TypeName(operand.value.type)));
        }
      }
      CheckDistinct(operands, "begins_with", fail);
      return;
    case Condition::Kind::kContains:
      CheckDistinct(operands, "contains", fail);
      return;
    case Condition::Kind::kAnd:
    case Condition::Kind::kOr:
    case Condition::Kind::kNot:
    case Condition::Kind::kAttributeExists:
    case Condition::Kind::kAttributeNotExists:
      return;
  }
}

class ConditionParser {
 public:
  ConditionParser(std::string_view text, std::string_view kind, ExpressionNames& names,
                  ExpressionValues& values, Binding binding)
      : tokens_(text, kind), names_(names), values_(values), binding_(binding) {
    deferred_.values_in_written_order = kind == "KeyConditionExpression";
  }

  // Iterative, with the pending '(' NOT AND OR on a heap stack: nesting costs heap, not thread
  // stack, so 4 KB of "(" or NOT cannot exhaust an I/O thread's stack (test_limits.py runs the
  // server on a 256 KB stack). The tree it builds is at most kMaxOperators deep, since every
  // level is an AND, OR or NOT and each counts as an operator: walks over it may recurse.
  Result<Condition> Parse() {
    std::vector<Pending> pending;
    std::vector<Node> nodes;  // finished operands of the pending operators, left to right
    size_t open_parens = 0;
    while (true) {
      while (true) {  // a run of '(' and NOT before a primary
        if (tokens_.Accept("(")) {
          pending.push_back(Pending::kParen);
          ++open_parens;
        } else if (tokens_.AcceptKeyword("NOT")) {
          if (!CountOperator()) return TooManyOperators();
          pending.push_back(Pending::kNot);
        } else {
          break;
        }
      }
      auto primary = ParsePrimary();
      if (!primary.ok()) return primary.error();
      nodes.push_back(std::move(primary).value());
      while (true) {  // NOTs apply to what just ended; ')' ends a group, which may end more
        ReduceNots(pending, nodes);
        if (open_parens == 0 || !tokens_.Accept(")")) break;
        ReduceChains(pending, nodes);
        pending.pop_back();  // its '('
        --open_parens;
        if (nodes.back().parenthesized) {
          deferred_.Semantic(tokens_.Invalid("The expression has redundant parentheses;"));
        }
        nodes.back().parenthesized = true;
      }
      if (tokens_.AcceptKeyword("AND")) {
        if (!CountOperator()) return TooManyOperators();
        pending.push_back(Pending::kAnd);
      } else if (tokens_.AcceptKeyword("OR")) {
        if (!CountOperator()) return TooManyOperators();
        ReduceChain(Pending::kAnd, pending, nodes);
        pending.push_back(Pending::kOr);
      } else {
        break;
      }
    }
    if (open_parens > 0) return tokens_.SyntaxError();  // where the ')' should be
    ReduceChains(pending, nodes);
    if (!tokens_.AtEnd()) return tokens_.SyntaxError();
    if (Status deferred = deferred_.First(); !deferred.ok()) return deferred.error();
    if (!nodes.back().is_condition) return tokens_.SyntaxError();
    return std::move(nodes.back().condition);
  }

  // False when a parse with unbound placeholders cannot be bound later (size() of a value:
  // folded into a number at the parse).
  bool bindable() const { return bindable_; }

 private:
  enum class Pending { kParen, kNot, kAnd, kOr };

  // DynamoDB stops counting at the first operator over the limit and reports that count (a
  // chain of 907 operators reports 301), so the parse ends there, before any later error.
  bool CountOperator() { return ++operators_ <= kMaxOperators; }
  Error TooManyOperators() const {
    return tokens_.Invalid("The expression contains too many operators; operator count: " +
                           std::to_string(operators_));
  }

  void ReduceNots(std::vector<Pending>& pending, std::vector<Node>& nodes) {
    while (!pending.empty() && pending.back() == Pending::kNot) {
      pending.pop_back();
      Node node;
      node.is_condition = true;
      node.condition.kind = Condition::Kind::kNot;
      node.condition.children.push_back(RequireCondition(std::move(nodes.back())));
      nodes.back() = std::move(node);
    }
  }

  // Joins the operands of the run of `kind` (AND or OR) on top of `pending` into one chain.
  void ReduceChain(Pending kind, std::vector<Pending>& pending, std::vector<Node>& nodes) {
    size_t count = 0;
    while (!pending.empty() && pending.back() == kind) {
      pending.pop_back();
      ++count;
    }
    if (count == 0) return;
    Node chain;
    chain.is_condition = true;
    chain.condition.kind = kind == Pending::kAnd ? Condition::Kind::kAnd : Condition::Kind::kOr;
    const size_t first = nodes.size() - count - 1;
    for (size_t i = first; i < nodes.size(); ++i) {
      chain.condition.children.push_back(RequireCondition(std::move(nodes[i])));
    }
    nodes.resize(first);
    nodes.push_back(std::move(chain));
  }

  void ReduceChains(std::vector<Pending>& pending, std::vector<Node>& nodes) {
    ReduceChain(Pending::kAnd, pending, nodes);
    ReduceChain(Pending::kOr, pending, nodes);
  }

  // A comparison, BETWEEN, IN or function condition (never a '(' group: Parse handles those).
  Result<Node> ParsePrimary() {
    auto left = ParseOperandOrFunction();
    if (!left.ok()) return left;
    if (left.value().is_condition) return left;
    return ParseComparison(std::move(left).value().operand);
  }

  Result<Node> ParseComparison(Operand left) {
    static constexpr std::array<std::pair<std::string_view, Condition::Comparator>, 6>
        kComparators = {{
            {"=", Condition::Comparator::kEq},
            {"<>", Condition::Comparator::kNe},
            {"<", Condition::Comparator::kLt},
            {"<=", Condition::Comparator::kLe},
            {">", Condition::Comparator::kGt},
            {">=", Condition::Comparator::kGe},
        }};
    Node node;
    node.is_condition = true;
    Condition& condition = node.condition;
    condition.operands.reserve(3);  // a comparison's two or BETWEEN's three: one allocation
    condition.operands.push_back(std::move(left));
    if (!CountOperator()) return TooManyOperators();
    for (const auto& [symbol, comparator] : kComparators) {
      if (!tokens_.Accept(symbol)) continue;
      condition.kind = Condition::Kind::kCompare;
      condition.comparator = comparator;
      auto right = ParseOperand();
      if (!right.ok()) return right.error();
      condition.operands.push_back(std::move(right).value());
      CheckBound(condition);
      return node;
    }
    if (tokens_.AcceptKeyword("BETWEEN")) {
      condition.kind = Condition::Kind::kBetween;
      for (int i = 0; i < 2; ++i) {
        if (i == 1 && !tokens_.AcceptKeyword("AND")) return tokens_.SyntaxError();
        auto bound = ParseOperand();
        if (!bound.ok()) return bound.error();
        condition.operands.push_back(std::move(bound).value());
      }
      CheckBound(condition);
      return node;
    }
    if (tokens_.AcceptKeyword("IN")) {
      condition.kind = Condition::Kind::kIn;
      if (!tokens_.Accept("(")) return tokens_.SyntaxError();
      do {
        auto element = ParseOperand();
        if (!element.ok()) return element.error();
        condition.operands.push_back(std::move(element).value());
      } while (tokens_.Accept(","));
      if (!tokens_.Accept(")")) return tokens_.SyntaxError();
      if (condition.operands.size() - 1 > kMaxInOperands) {
        deferred_.Semantic(tokens_.Invalid(
            "The IN operator is provided with too many operands; number of operands: " +
            std::to_string(condition.operands.size() - 1)));
      }
      CheckBound(condition);
      return node;
    }
    return tokens_.SyntaxError();
  }

  // A path, a :value, or size(...); a function in condition position returns a condition.
  Result<Node> ParseOperandOrFunction() {
    const Token& token = tokens_.Peek();
    if (token.kind == TokenKind::kIdentifier && tokens_.Peek(1).kind == TokenKind::kSymbol &&
        tokens_.Peek(1).text == "(") {
      return ParseFunction();
    }
    Node node;
    if (token.kind == TokenKind::kValuePlaceholder) {
      tokens_.Next();
      node.operand.kind = Operand::Kind::kValue;
      node.operand.value = values_.Resolve(token.text, tokens_, deferred_);
      return node;
    }
    if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kNamePlaceholder) {
      return tokens_.SyntaxError();
    }
    auto path = ParseDocumentPath(tokens_, names_, deferred_);
    if (!path.ok()) return path.error();
    node.operand.path = std::move(path).value();
    return node;
  }

  Result<Operand> ParseOperand() {
    auto node = ParseOperandOrFunction();
    if (!node.ok()) return node.error();
    if (node.value().is_condition) {
      deferred_.Semantic(tokens_.Invalid(
          "The function is not allowed to be used this way in an expression; function: " +
          last_function_));
    }
    return std::move(node).value().operand;
  }

  Result<Node> ParseFunction() {
    const std::string name(tokens_.Next().text);
    tokens_.Next();  // (
    if (function_depth_ == kMaxFunctionNesting) return TooDeepFunction(name);
    ++function_depth_;
    std::vector<Operand> arguments;
    if (!tokens_.Accept(")")) {
      do {
        auto argument = ParseOperand();
        if (!argument.ok()) return argument.error();
        arguments.push_back(std::move(argument).value());
      } while (tokens_.Accept(","));
      if (!tokens_.Accept(")")) return tokens_.SyntaxError();
    }
    --function_depth_;
    last_function_ = name;
    if (function_depth_ == 0 && !CountOperator()) return TooManyOperators();
    return BuildFunction(name, std::move(arguments));
  }

  // The error a call nested kMaxFunctionNesting deep gets in any case: an unknown or update-only
  // name, a condition used as an operand, or size() of something that is not a path.
  Error TooDeepFunction(const std::string& name) const {
    const FunctionSpec* spec = FindFunction(name);
    if (spec == nullptr) return UnknownFunction(name);
    if (spec->is_condition) {
      return tokens_.Invalid(
          "The function is not allowed to be used this way in an expression; function: " + name);
    }
    return tokens_.Invalid(
        "Operator or function requires a document path; operator or function: size");
  }

  Error UnknownFunction(const std::string& name) const {
    return tokens_.Invalid(
        name == "if_not_exists" || name == "list_append"
            ? "The function is not allowed in a condition expression; function: " + name
            : "Invalid function name; function: " + name);
  }

  Node BuildFunction(const std::string& name, std::vector<Operand> arguments) {
    Node node;
    const FunctionSpec* spec = FindFunction(name);
    if (spec == nullptr) {
      deferred_.Semantic(UnknownFunction(name));
      // Read as what its place makes it, so `dog(a) = :v` reports the name, not the '='.
      node.is_condition = !NextIsComparison();
      return node;
    }
    if (arguments.size() != spec->arity) {
      deferred_.Semantic(tokens_.Invalid(
          "Incorrect number of operands for operator or function; operator or function: " + name +
          ", number of operands: " + std::to_string(arguments.size())));
      node.is_condition = spec->is_condition;
      return node;
    }
    if (!spec->is_condition) return SizeOperand(arguments[0]);
    const bool needs_path = spec->kind == Condition::Kind::kAttributeExists ||
                            spec->kind == Condition::Kind::kAttributeNotExists;
    if (needs_path && arguments[0].kind != Operand::Kind::kPath) {
      deferred_.Semantic(tokens_.Invalid(
          "Operator or function requires a document path; operator or function: " + name));
    }
    node.is_condition = true;
    node.condition.kind = spec->kind;
    node.condition.operands = std::move(arguments);
    CheckBound(node.condition);
    return node;
  }

  // size(path) is evaluated per item; size(:value) is known now, and of a number, boolean or
  // null (or of another size()) it is DynamoDB's operand-type error.
  Node SizeOperand(const Operand& argument) {
    Node node;
    if (argument.kind == Operand::Kind::kPath) {
      node.operand.kind = Operand::Kind::kSize;
      node.operand.path = argument.path;
      return node;
    }
    if (binding_ == Binding::kLater) bindable_ = false;  // the value is not known yet
    const std::optional<size_t> size =
        argument.kind == Operand::Kind::kValue ? SizeOf(argument.value) : std::nullopt;
    if (!size) {
      const AttributeType type =
          argument.kind == Operand::Kind::kValue ? argument.value.type : AttributeType::kN;
      deferred_.Semantic(tokens_.Invalid(
          "Incorrect operand type for operator or function; operator or function: size, "
          "operand type: " +
          std::string(TypeName(type))));
    }
    node.operand.kind = Operand::Kind::kValue;
    node.operand.value = AttributeValue::Number(std::to_string(size.value_or(0)));
    return node;
  }

  // After a function call: is it the left side of a comparison?
  bool NextIsComparison() const {
    const Token& next = tokens_.Peek();
    if (next.kind == TokenKind::kSymbol) {
      return next.text == "=" || next.text == "<>" || next.text == "<" || next.text == "<=" ||
             next.text == ">" || next.text == ">=";
    }
    return tokens_.PeekKeyword("BETWEEN") || tokens_.PeekKeyword("IN");
  }

  // The checks of a finished comparison or function's operands that depend on the values and
  // names bound to it; a parse that binds them later skips them (they are made when it is bound).
  void CheckBound(const Condition& condition) {
    if (binding_ == Binding::kLater) return;
    auto fail = [this](const std::string& detail) { deferred_.Semantic(tokens_.Invalid(detail)); };
    CheckBoundOperands(condition.kind, condition.comparator, condition.operands, fail);
  }

  // Functions in operand position and other misplaced conditions are reported as semantic
  // errors; the parse goes on with an always-false condition in their place.
  Condition RequireCondition(Node node) {
    if (!node.is_condition) deferred_.Semantic(tokens_.SyntaxError());
    return std::move(node.condition);
  }

  TokenStream tokens_;
  ExpressionNames& names_;
  ExpressionValues& values_;
  const Binding binding_;
  bool bindable_ = true;
  DeferredErrors deferred_;
  std::string last_function_;
  size_t operators_ = 0;
  size_t function_depth_ = 0;
};

}  // namespace

Result<Condition> ParseConditionAfresh(std::string_view text, std::string_view kind,
                                       ExpressionNames& names, ExpressionValues& values) {
  const std::string prefix = "Invalid " + std::string(kind) + ": ";
  if (text.size() > kMaxExpressionBytes) {
    return Error::Validation(prefix +
                             "Expression size has exceeded the maximum allowed size; expression "
                             "size: " +
                             std::to_string(text.size()));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Error::Validation(prefix + "The expression can not be empty;");
  }
  return ConditionParser(text, kind, names, values, Binding::kNow).Parse();
}

std::optional<Condition> ParseUnboundCondition(std::string_view text, std::string_view kind) {
  if (text.size() > kMaxExpressionBytes) return std::nullopt;
  ExpressionNames names = ExpressionNames::Unbound();
  ExpressionValues values = ExpressionValues::Unbound();
  ConditionParser parser(text, kind, names, values, Binding::kLater);
  auto parsed = parser.Parse();
  if (!parsed.ok() || !parser.bindable()) return std::nullopt;
  return std::move(parsed).value();
}

bool BoundOperandsFit(const Condition& condition) {
  bool fits = true;
  auto fail = [&fits](const std::string&) { fits = false; };
  CheckBoundOperands(condition.kind, condition.comparator, condition.operands, fail);
  return fits;
}

}  // namespace ddbd
