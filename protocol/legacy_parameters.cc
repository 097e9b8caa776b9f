#include "protocol/legacy_parameters.h"

#include <array>
#include <string>

#include "protocol/attribute_value_json.h"
#include "protocol/generated/enums.h"
#include "protocol/validation_messages.h"

namespace ddbd {
namespace {

constexpr const char* kInvalid = "One or more parameter values were invalid: ";

struct Comparison {
  std::string_view name;
  size_t min_arguments;
  size_t max_arguments;
};

// DynamoDB's ComparisonOperator values in the order its enum-set message lists them.
constexpr std::array<Comparison, 13> kComparisons = {{
    {"IN", 1, 100},
    {"NULL", 0, 0},
    {"BETWEEN", 2, 2},
    {"LT", 1, 1},
    {"NOT_CONTAINS", 1, 1},
    {"EQ", 1, 1},
    {"GT", 1, 1},
    {"NOT_NULL", 0, 0},
    {"NE", 1, 1},
    {"LE", 1, 1},
    {"BEGINS_WITH", 1, 1},
    {"GE", 1, 1},
    {"CONTAINS", 1, 1},
}};

Error Invalid(const std::string& detail) { return Error::Validation(kInvalid + detail); }

bool IsScalar(AttributeType type) {
  return type == AttributeType::kS || type == AttributeType::kN || type == AttributeType::kB;
}

// Which value types an operator accepts, as DynamoDB checks them.
bool AcceptsType(std::string_view op, AttributeType type) {
  if (op == "EQ" || op == "NE") return true;
  if (op == "BEGINS_WITH") return type == AttributeType::kS || type == AttributeType::kB;
  return IsScalar(type);  // LT LE GT GE BETWEEN IN CONTAINS NOT_CONTAINS
}

Operand PathOf(const std::string& name) {
  Operand operand;
  operand.path = {{name, -1}};
  return operand;
}

Operand ValueOf(AttributeValue value) {
  Operand operand;
  operand.kind = Operand::Kind::kValue;
  operand.value = std::move(value);
  return operand;
}

Condition Build(const std::string& name, std::string_view op,
                std::vector<AttributeValue> arguments) {
  Condition condition;
  condition.operands.push_back(PathOf(name));
  for (AttributeValue& argument : arguments)
    condition.operands.push_back(ValueOf(std::move(argument)));
  static constexpr std::array<std::pair<std::string_view, Condition::Comparator>, 6> kComparators =
      {{
          {"EQ", Condition::Comparator::kEq},
          {"NE", Condition::Comparator::kNe},
          {"LT", Condition::Comparator::kLt},
          {"LE", Condition::Comparator::kLe},
          {"GT", Condition::Comparator::kGt},
          {"GE", Condition::Comparator::kGe},
      }};
  for (const auto& [text, comparator] : kComparators) {
    if (op == text) {
      condition.kind = Condition::Kind::kCompare;
      condition.comparator = comparator;
      return condition;
    }
  }
  if (op == "NULL") condition.kind = Condition::Kind::kAttributeNotExists;
  if (op == "NOT_NULL") condition.kind = Condition::Kind::kAttributeExists;
  if (op == "BETWEEN") condition.kind = Condition::Kind::kBetween;
  if (op == "IN") condition.kind = Condition::Kind::kIn;
  if (op == "BEGINS_WITH") condition.kind = Condition::Kind::kBeginsWith;
  if (op == "CONTAINS" || op == "NOT_CONTAINS") condition.kind = Condition::Kind::kContains;
  if (op == "NOT_CONTAINS") {  // false for a missing attribute, unlike NOT contains(...)
    Condition exists;
    exists.kind = Condition::Kind::kAttributeExists;
    exists.operands.push_back(PathOf(name));
    Condition negated;
    negated.kind = Condition::Kind::kNot;
    negated.children.push_back(std::move(condition));
    Condition both;
    both.kind = Condition::Kind::kAnd;
    both.children.push_back(std::move(exists));
    both.children.push_back(std::move(negated));
    return both;
  }
  return condition;
}

// One Expected entry: {Value, Exists} or {ComparisonOperator, AttributeValueList | Value}.
Result<Condition> DecodeExpectedEntry(const std::string& name, const json::Value& entry) {
  auto exists = json::AsBoolean(json::Member(entry, "Exists"));
  if (!exists.ok()) return exists.error();
  auto op_text = json::AsString(json::Member(entry, "ComparisonOperator"));
  if (!op_text.ok()) return op_text.error();
  auto list = json::AsList(json::Member(entry, "AttributeValueList"));
  if (!list.ok()) return list.error();
  const json::Value* value_json = json::Member(entry, "Value");
  AttributeDecoder decoder;
  std::vector<AttributeValue> arguments;
  if (value_json != nullptr) arguments.push_back(decoder.DecodeValue(*value_json));
  if (list.value() != nullptr) {
    for (const auto& element : list.value()->GetArray())
      arguments.push_back(decoder.DecodeValue(element));
  }
  if (Status decoded = decoder.status(); !decoded.ok()) return decoded.error();
  if (op_text.value()) {
    const std::string_view op = *op_text.value();
    const Comparison* comparison = nullptr;
    for (const Comparison& candidate : kComparisons) {
      if (candidate.name == op) comparison = &candidate;
    }
    if (comparison == nullptr) {
      ConstraintErrors errors;
      errors.Enum(op, "expected." + name + ".member.comparisonOperator", wire::kComparisonOperator);
      return errors.ToStatus().error();
    }
    if (exists.value()) {
      return Invalid("Exists and ComparisonOperator cannot be used together for Attribute: " +
                     name);
    }
    if (value_json != nullptr && list.value() != nullptr) {
      return Invalid("Value and AttributeValueList cannot be used together for Attribute: " + name);
    }
    if (value_json == nullptr && list.value() == nullptr && comparison->min_arguments > 0) {
      return Invalid("Value or AttributeValueList must be used with ComparisonOperator: " +
                     std::string(op) + " for Attribute: " + name);
    }
    if (arguments.size() < comparison->min_arguments ||
        arguments.size() > comparison->max_arguments) {
      return Invalid("Invalid number of argument(s) for the " + std::string(op) +
                     " ComparisonOperator");
    }
    for (const AttributeValue& argument : arguments) {
      if (!AcceptsType(op, argument.type)) {
        return Invalid("ComparisonOperator " + std::string(op) + " is not valid for " +
                       std::string(TypeName(argument.type)) + " AttributeValue type");
      }
      if (argument.type != arguments[0].type) {
        return Invalid("AttributeValues inside AttributeValueList must be of same type");
      }
    }
    if (op == "BETWEEN" && CompareScalars(arguments[0], arguments[1]) > 0) {
      return Error::Validation(
          "The BETWEEN condition was provided a range where the lower bound is greater than the "
          "upper bound");
    }
    return Build(name, op, std::move(arguments));
  }
  if (list.value() != nullptr) {
    return Invalid("AttributeValueList can only be used with a ComparisonOperator for Attribute: " +
                   name);
  }
  if (exists.value() && !*exists.value()) {
    if (value_json != nullptr) {
      return Invalid("Value cannot be used when Exists is false for Attribute: " + name);
    }
    return Build(name, "NULL", {});
  }
  if (value_json == nullptr) {
    return Invalid(std::string("Value must be provided when Exists is ") +
                   (exists.value() ? "true" : "null") + " for Attribute: " + name);
  }
  return Build(name, "EQ", std::move(arguments));
}

}  // namespace

Result<std::optional<Condition>> DecodeLegacyConditions(const json::Value& request,
                                                        const char* member_name) {
  auto expected = json::AsStructure(json::Member(request, member_name), "ExpectedAttributeValue");
  if (!expected.ok()) return expected.error();
  auto conditional_operator = json::AsString(json::Member(request, "ConditionalOperator"));
  if (!conditional_operator.ok()) return conditional_operator.error();
  const bool use_or = conditional_operator.value() && *conditional_operator.value() == "OR";
  if (conditional_operator.value() && !use_or && *conditional_operator.value() != "AND") {
    ConstraintErrors errors;
    errors.Enum(*conditional_operator.value(), "conditionalOperator", wire::kConditionalOperator);
    return errors.ToStatus().error();
  }
  if (expected.value() == nullptr || expected.value()->ObjectEmpty()) {
    if (conditional_operator.value()) {
      return Error::Validation("ConditionalOperator cannot be used without Filter or Expected");
    }
    return std::optional<Condition>();
  }
  if (conditional_operator.value() && expected.value()->MemberCount() < 2) {
    return Error::Validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  Condition combined;
  combined.kind = use_or ? Condition::Kind::kOr : Condition::Kind::kAnd;
  for (const auto& member : expected.value()->GetObject()) {
    auto entry = json::AsStructure(&member.value, "ExpectedAttributeValue");
    if (!entry.ok()) return entry.error();
    auto condition = DecodeExpectedEntry(
        std::string(member.name.GetString(), member.name.GetStringLength()), *entry.value());
    if (!condition.ok()) return condition.error();
    combined.children.push_back(std::move(condition).value());
  }
  return std::optional<Condition>(std::move(combined));
}

Status CheckOneParameterStyle(const json::Value& request,
                              std::initializer_list<std::string_view> legacy,
                              std::initializer_list<std::string_view> expression) {
  auto present = [&request](std::initializer_list<std::string_view> names) {
    std::string list;
    for (std::string_view name : names) {
      if (json::Member(request, name) == nullptr) continue;
      if (!list.empty()) list += ", ";
      list += name;
    }
    return list;
  };
  const std::string legacy_present = present(legacy);
  if (legacy_present.empty()) return Ok{};
  const std::string expression_present = present(expression);
  if (expression_present.empty()) return Ok{};
  return Error::Validation(
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {" +
      legacy_present + "} Expression parameters: {" + expression_present + "}");
}

Result<std::vector<UpdateAction>> DecodeAttributeUpdates(const json::Value& request) {
  auto updates =
      json::AsStructure(json::Member(request, "AttributeUpdates"), "AttributeValueUpdate");
  if (!updates.ok()) return updates.error();
  std::vector<UpdateAction> actions;
  if (updates.value() == nullptr) return actions;
  for (const auto& member : updates.value()->GetObject()) {
    const std::string name(member.name.GetString(), member.name.GetStringLength());
    if (name.empty()) return Error::Validation("Empty attribute name");  // as in an item
    // coral's map-key constraint; the map itself is not rendered here
    if (name.size() > kMaxAttributeNameBytes) {
      return Error::Validation(
          "1 validation error detected: Value at 'attributeUpdates' failed to satisfy constraint: "
          "Map keys must satisfy constraint: [Member must have length less than or equal to "
          "65535]");
    }
    auto entry = json::AsStructure(&member.value, "AttributeValueUpdate");
    if (!entry.ok()) return entry.error();
    auto action_text = json::AsString(json::Member(*entry.value(), "Action"));
    if (!action_text.ok()) return action_text.error();
    const std::string_view action = action_text.value().value_or("PUT");
    if (action != "PUT" && action != "ADD" && action != "DELETE") {
      ConstraintErrors errors;
      errors.Enum(action, "attributeUpdates." + name + ".member.action", wire::kAttributeAction);
      return errors.ToStatus().error();
    }
    const json::Value* value_json = json::Member(*entry.value(), "Value");
    AttributeDecoder decoder;
    AttributeValue value =
        value_json != nullptr ? decoder.DecodeValue(*value_json) : AttributeValue();
    if (Status decoded = decoder.status(); !decoded.ok()) return decoded.error();
    UpdateAction update;
    update.path = {{name, -1}};
    update.legacy = true;
    const bool is_set = value.type == AttributeType::kSS || value.type == AttributeType::kNS ||
                        value.type == AttributeType::kBS;
    if (value_json == nullptr) {
      if (action != "DELETE") {
        return Invalid("Only DELETE action is allowed when no attribute value is specified");
      }
      update.kind = UpdateAction::Kind::kRemove;
    } else if (action == "PUT") {
      update.kind = UpdateAction::Kind::kSet;
      update.value.operand = ValueOf(std::move(value));
    } else if (action == "ADD") {
      if (!is_set && value.type != AttributeType::kN && value.type != AttributeType::kL) {
        return Invalid("ADD action is not supported for the type " +
                       std::string(TypeName(value.type)));
      }
      update.kind = UpdateAction::Kind::kAdd;
      update.operand = std::move(value);
    } else {
      if (!is_set) {
        return Invalid("DELETE action with value is not supported for the type " +
                       std::string(TypeName(value.type)));
      }
      update.kind = UpdateAction::Kind::kDelete;
      update.operand = std::move(value);
    }
    actions.push_back(std::move(update));
  }
  return actions;
}

}  // namespace ddbd
