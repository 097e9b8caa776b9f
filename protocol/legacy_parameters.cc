#include "protocol/legacy_parameters.h"

#include <array>
#include <string>

#include "protocol/attribute_value_json.h"
#include "protocol/generated/requests.h"

namespace ddbd {
namespace {

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

Error Invalid(const std::string& detail) {
  return Error::Validation(kInvalidParameterValues + detail);
}

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

// One Expected entry: {Value, Exists} or {ComparisonOperator, AttributeValueList | Value}; a
// filter's is {ComparisonOperator, AttributeValueList}.
struct LegacyEntry {
  const json::Value* value = nullptr;
  std::optional<bool> exists;
  std::optional<std::string_view> comparison_operator;
  const json::Value* attribute_value_list = nullptr;
};

LegacyEntry EntryOf(const json::Value& entry, LegacyConditions kind) {
  if (kind == LegacyConditions::kExpected) {
    wire::ExpectedAttributeValue expected;
    wire::View(entry, expected);
    return {expected.value, expected.exists, expected.comparison_operator,
            expected.attribute_value_list};
  }
  wire::Condition condition;
  wire::View(entry, condition);
  return {nullptr, std::nullopt, condition.comparison_operator, condition.attribute_value_list};
}

Result<Condition> DecodeExpectedEntry(const std::string& name, const LegacyEntry& entry,
                                      wire::ValueRules rules) {
  const json::Value* value_json = entry.value;
  const json::Value* list = entry.attribute_value_list;
  AttributeDecoder decoder(rules);
  std::vector<AttributeValue> arguments;
  if (value_json != nullptr) arguments.push_back(decoder.DecodeValue(*value_json));
  if (list != nullptr) {
    for (const auto& element : list->GetArray()) arguments.push_back(decoder.DecodeValue(element));
  }
  if (Status decoded = decoder.status(); !decoded.ok()) return decoded.error();
  if (entry.comparison_operator) {
    const std::string_view op = *entry.comparison_operator;
    const Comparison* comparison = nullptr;
    for (const Comparison& candidate : kComparisons) {
      if (candidate.name == op) comparison = &candidate;
    }
    // The generated layer has checked the enum; this is a guard, never an answer.
    if (comparison == nullptr) return Invalid("Unknown ComparisonOperator: " + std::string(op));
    if (entry.exists) {
      return Invalid("Exists and ComparisonOperator cannot be used together for Attribute: " +
                     name);
    }
    if (value_json != nullptr && list != nullptr) {
      return Invalid("Value and AttributeValueList cannot be used together for Attribute: " + name);
    }
    if (value_json == nullptr && list == nullptr && comparison->min_arguments > 0) {
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
  if (list != nullptr) {
    return Invalid("AttributeValueList can only be used with a ComparisonOperator for Attribute: " +
                   name);
  }
  if (entry.exists && !*entry.exists) {
    if (value_json != nullptr) {
      return Invalid("Value cannot be used when Exists is false for Attribute: " + name);
    }
    return Build(name, "NULL", {});
  }
  if (value_json == nullptr) {
    return Invalid(std::string("Value must be provided when Exists is ") +
                   (entry.exists ? "true" : "null") + " for Attribute: " + name);
  }
  return Build(name, "EQ", std::move(arguments));
}

}  // namespace

Result<std::optional<Condition>> DecodeLegacyConditions(
    const json::Value* conditions, std::optional<std::string_view> conditional_operator,
    LegacyConditions kind, wire::ValueRules rules) {
  const bool use_or = conditional_operator == "OR";
  if (conditions == nullptr || conditions->ObjectEmpty()) {
    if (conditional_operator) {
      return Error::Validation("ConditionalOperator cannot be used without Filter or Expected");
    }
    return std::optional<Condition>();
  }
  if (conditional_operator && conditions->MemberCount() < 2) {
    return Error::Validation(
        "ConditionalOperator can only be used when Filter or Expected has two or more elements");
  }
  Condition combined;
  combined.kind = use_or ? Condition::Kind::kOr : Condition::Kind::kAnd;
  for (const auto& member : conditions->GetObject()) {
    if (member.value.IsNull()) continue;
    auto condition =
        DecodeExpectedEntry(std::string(member.name.GetString(), member.name.GetStringLength()),
                            EntryOf(member.value, kind), rules);
    if (!condition.ok()) return condition.error();
    combined.children.push_back(std::move(condition).value());
  }
  return std::optional<Condition>(std::move(combined));
}

Status CheckOneParameterStyle(std::initializer_list<GivenMember> legacy,
                              std::initializer_list<GivenMember> expression) {
  auto given = [](std::initializer_list<GivenMember> members) {
    std::string list;
    for (const GivenMember& member : members) {
      if (!member.given) continue;
      if (!list.empty()) list += ", ";
      list += member.name;
    }
    return list;
  };
  const std::string legacy_given = given(legacy);
  if (legacy_given.empty()) return Ok{};
  const std::string expression_given = given(expression);
  if (expression_given.empty()) return Ok{};
  return Error::Validation(
      "Can not use both expression and non-expression parameters in the same request: "
      "Non-expression parameters: {" +
      legacy_given + "} Expression parameters: {" + expression_given + "}");
}

Result<std::vector<UpdateAction>> DecodeAttributeUpdates(const json::Value* attribute_updates,
                                                         wire::ValueRules rules) {
  std::vector<UpdateAction> actions;
  if (attribute_updates == nullptr) return actions;
  for (const auto& member : attribute_updates->GetObject()) {
    if (member.value.IsNull()) continue;
    const std::string name(member.name.GetString(), member.name.GetStringLength());
    if (name.empty()) return Error::Validation("Empty attribute name");  // as in an item
    wire::AttributeValueUpdate entry;
    wire::View(member.value, entry);
    const std::string_view action = entry.action.value_or("PUT");
    const json::Value* value_json = entry.value;
    AttributeDecoder decoder(rules);
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
