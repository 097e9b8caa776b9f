#include "protocol/key_condition.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "protocol/attribute_value_json.h"
#include "protocol/generated/requests.h"

namespace ddbd {
namespace {

Error InvalidOperator(const std::string& op) {
  return Error::Validation("Invalid operator used in KeyConditionExpression: " + op);
}

Error InvalidCondition(const std::string& detail) {
  return Error::Validation("Invalid condition in KeyConditionExpression: " + detail);
}

// The comparison seen from the attribute's side: ":v < a" is "a > :v".
KeyTerm::Op Flipped(Condition::Comparator comparator, bool flip) {
  switch (comparator) {
    case Condition::Comparator::kLt:
      return flip ? KeyTerm::Op::kGt : KeyTerm::Op::kLt;
    case Condition::Comparator::kLe:
      return flip ? KeyTerm::Op::kGe : KeyTerm::Op::kLe;
    case Condition::Comparator::kGt:
      return flip ? KeyTerm::Op::kLt : KeyTerm::Op::kGt;
    case Condition::Comparator::kGe:
      return flip ? KeyTerm::Op::kLe : KeyTerm::Op::kGe;
    default:
      return KeyTerm::Op::kEq;
  }
}

Status CheckOperand(const Operand& operand) {
  if (operand.kind == Operand::Kind::kSize) {
    return Error::Validation("KeyConditionExpressions cannot contain nested operations");
  }
  if (operand.kind == Operand::Kind::kPath && operand.path.size() > 1) {
    return Error::Validation("KeyConditionExpressions cannot have conditions on nested attributes");
  }
  return Ok{};
}

// The term of one condition of the AND, its values and name moved out of it.
Result<KeyTerm> TermOf(Condition& condition) {
  for (const Operand& operand : condition.operands) {
    if (Status checked = CheckOperand(operand); !checked.ok()) return checked.error();
  }
  auto& operands = condition.operands;
  auto is_path = [](const Operand& operand) { return operand.kind == Operand::Kind::kPath; };
  KeyTerm term;
  switch (condition.kind) {
    case Condition::Kind::kCompare: {
      if (condition.comparator == Condition::Comparator::kNe) return InvalidOperator("<>");
      if (is_path(operands[0]) && is_path(operands[1])) {
        return InvalidCondition("Multiple attribute names used in one condition");
      }
      if (!is_path(operands[0]) && !is_path(operands[1])) {
        return InvalidCondition("No key attribute specified");
      }
      const bool flip = !is_path(operands[0]);
      term.attribute = std::move(operands[flip ? 1 : 0].path[0].name);
      term.op = Flipped(condition.comparator, flip);
      term.values.push_back(std::move(operands[flip ? 0 : 1].value));
      return term;
    }
    case Condition::Kind::kBetween:
    case Condition::Kind::kBeginsWith: {
      const std::string name =
          condition.kind == Condition::Kind::kBetween ? "BETWEEN" : "begins_with";
      if (!is_path(operands[0])) {
        return InvalidCondition(name +
                                " operator must have the key attribute as its first operand");
      }
      for (size_t i = 1; i < operands.size(); ++i) {
        if (is_path(operands[i]))
          return InvalidCondition("Multiple attribute names used in one condition");
        term.values.push_back(std::move(operands[i].value));
      }
      term.attribute = std::move(operands[0].path[0].name);
      term.op = condition.kind == Condition::Kind::kBetween ? KeyTerm::Op::kBetween
                                                            : KeyTerm::Op::kBeginsWith;
      return term;
    }
    case Condition::Kind::kOr:
      return InvalidOperator("OR");
    case Condition::Kind::kNot:
      return InvalidOperator("NOT");
    case Condition::Kind::kIn:
      return InvalidOperator("IN");
    case Condition::Kind::kAttributeExists:
      return InvalidOperator("attribute_exists");
    case Condition::Kind::kAttributeNotExists:
      return InvalidOperator("attribute_not_exists");
    case Condition::Kind::kAttributeType:
      return InvalidOperator("attribute_type");
    case Condition::Kind::kContains:
      return InvalidOperator("contains");
    case Condition::Kind::kAnd:
      break;
  }
  return InvalidOperator("AND");
}

// Flattens nested ANDs into their conditions (`C`: Condition, or const Condition to read only).
template <typename C>
void AddAnded(C& condition, std::vector<C*>& out) {
  if (condition.kind != Condition::Kind::kAnd) {
    out.push_back(&condition);
    return;
  }
  for (C& child : condition.children) AddAnded(child, out);
}

}  // namespace

std::vector<const Condition*> AndedConditions(const Condition& condition) {
  std::vector<const Condition*> parts;
  AddAnded(condition, parts);
  return parts;
}

Result<std::vector<KeyTerm>> KeyTermsFromCondition(Condition condition) {
  std::vector<Condition*> parts;
  AddAnded(condition, parts);
  std::vector<KeyTerm> terms;
  terms.reserve(parts.size());
  for (Condition* part : parts) {
    auto term = TermOf(*part);
    if (!term.ok()) return term.error();
    terms.push_back(std::move(term).value());
  }
  // Every term was read before any is compared (an invalid operator in a later part wins). At
  // most 300 parts (the parser's operator limit), mostly two: pairs, not a set's allocations.
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (terms[i].attribute != terms[j].attribute) continue;
      return Error::Validation(
          "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition "
          "per key");
    }
  }
  return terms;
}

Result<std::vector<KeyTerm>> DecodeKeyConditions(const json::Value& key_conditions,
                                                 wire::ValueRules rules) {
  struct Spec {
    std::string_view name;
    KeyTerm::Op op;
    size_t arguments;
  };
  static constexpr Spec kSpecs[] = {
      {"EQ", KeyTerm::Op::kEq, 1},
      {"LT", KeyTerm::Op::kLt, 1},
      {"LE", KeyTerm::Op::kLe, 1},
      {"GT", KeyTerm::Op::kGt, 1},
      {"GE", KeyTerm::Op::kGe, 1},
      {"BETWEEN", KeyTerm::Op::kBetween, 2},
      {"BEGINS_WITH", KeyTerm::Op::kBeginsWith, 1},
  };
  std::vector<KeyTerm> terms;
  for (const auto& member : key_conditions.GetObject()) {
    if (member.value.IsNull()) continue;
    wire::Condition entry;
    wire::View(member.value, entry);
    KeyTerm term;
    term.attribute.assign(member.name.GetString(), member.name.GetStringLength());
    AttributeDecoder decoder(rules);
    if (entry.attribute_value_list != nullptr) {
      for (const auto& element : entry.attribute_value_list->GetArray())
        term.values.push_back(decoder.DecodeValue(element));
    }
    if (Status decoded = decoder.status(); !decoded.ok()) return decoded.error();
    const Spec* spec = nullptr;
    for (const Spec& candidate : kSpecs) {
      if (candidate.name == entry.comparison_operator) spec = &candidate;
    }
    if (spec == nullptr) {
      return Error::Validation("Attempted conditional constraint is not an indexable operation");
    }
    if (term.values.size() != spec->arguments) {
      return Error::Validation(
          "One or more parameter values were invalid: Invalid number of "
          "argument(s) for the " +
          std::string(spec->name) + " ComparisonOperator");
    }
    for (const AttributeValue& value : term.values) {
      const bool accepted = spec->op == KeyTerm::Op::kBeginsWith
                                ? value.type == AttributeType::kS || value.type == AttributeType::kB
                                : spec->op == KeyTerm::Op::kEq || value.type == AttributeType::kS ||
                                      value.type == AttributeType::kN ||
                                      value.type == AttributeType::kB;
      if (!accepted) {
        return Error::Validation("One or more parameter values were invalid: ComparisonOperator " +
                                 std::string(spec->name) + " is not valid for " +
                                 std::string(TypeName(value.type)) + " AttributeValue type");
      }
    }
    if (term.values.size() == 2) {
      if (term.values[0].type != term.values[1].type) {
        return Error::Validation(
            "One or more parameter values were invalid: AttributeValues "
            "inside AttributeValueList must be of same type");
      }
      if (CompareScalars(term.values[0], term.values[1]) > 0) {
        return Error::Validation(
            "The BETWEEN condition was provided a range where the lower "
            "bound is greater than the upper bound");
      }
    }
    term.op = spec->op;
    terms.push_back(std::move(term));
  }
  return terms;
}

}  // namespace ddbd
