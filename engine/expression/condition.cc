#include "engine/expression/condition.h"

#include <algorithm>
#include <optional>

#include "engine/model/number.h"

namespace ddbd {
namespace {

bool IsScalarComparable(AttributeType type) {
  return type == AttributeType::kN || type == AttributeType::kS || type == AttributeType::kB;
}

bool IsSet(AttributeType type) {
  return type == AttributeType::kSS || type == AttributeType::kNS || type == AttributeType::kBS;
}

// Equality as DynamoDB sees it: numbers by value, sets regardless of order.
bool ValuesEqual(const AttributeValue& a, const AttributeValue& b) {
  if (a.type != b.type) return false;
  if (IsSet(a.type)) {
    if (a.members.size() != b.members.size()) return false;
    std::vector<std::string> left = a.members;
    std::vector<std::string> right = b.members;
    std::sort(left.begin(), left.end());
    std::sort(right.begin(), right.end());
    if (a.type != AttributeType::kNS) return left == right;
    for (size_t i = 0; i < left.size(); ++i) {
      if (CompareScalars(AttributeValue::Number(left[i]), AttributeValue::Number(right[i])) != 0) {
        return false;
      }
    }
    return true;
  }
  if (a.type == AttributeType::kN) return CompareScalars(a, b) == 0;
  if (a.type == AttributeType::kL) {
    if (a.list.size() != b.list.size()) return false;
    for (size_t i = 0; i < a.list.size(); ++i) {
      if (!ValuesEqual(a.list[i], b.list[i])) return false;
    }
    return true;
  }
  if (a.type == AttributeType::kM) {
    if (a.map.size() != b.map.size()) return false;
    for (const auto& [name, value] : a.map) {
      const AttributeValue* other = FindAttribute(b.map, name);
      if (other == nullptr || !ValuesEqual(value, *other)) return false;
    }
    return true;
  }
  return a == b;
}

size_t Utf8Length(const std::string& text) {
  size_t length = 0;
  for (char c : text) length += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return length;
}

// The value of an operand, or nullopt if it refers to a missing attribute.
std::optional<AttributeValue> OperandValue(const Operand& operand, const Item& item) {
  if (operand.kind == Operand::Kind::kValue) return operand.value;
  const AttributeValue* value = ResolvePath(item, operand.path);
  if (value == nullptr) return std::nullopt;
  if (operand.kind == Operand::Kind::kPath) return *value;
  const std::optional<size_t> size = SizeOf(*value);
  if (!size) return std::nullopt;  // size() of a number, boolean or null: no value
  return AttributeValue::Number(std::to_string(*size));
}

bool Compare(Condition::Comparator comparator, const std::optional<AttributeValue>& a,
             const std::optional<AttributeValue>& b) {
  if (comparator == Condition::Comparator::kEq) return a && b && ValuesEqual(*a, *b);
  if (comparator == Condition::Comparator::kNe) return !(a && b && ValuesEqual(*a, *b));
  if (!a || !b || a->type != b->type || !IsScalarComparable(a->type)) return false;
  const int order = CompareScalars(*a, *b);
  switch (comparator) {
    case Condition::Comparator::kLt:
      return order < 0;
    case Condition::Comparator::kLe:
      return order <= 0;
    case Condition::Comparator::kGt:
      return order > 0;
    case Condition::Comparator::kGe:
      return order >= 0;
    default:
      return false;
  }
}

bool Contains(const AttributeValue& haystack, const AttributeValue& needle) {
  switch (haystack.type) {
    case AttributeType::kS:
    case AttributeType::kB:
      return needle.type == haystack.type &&
             haystack.scalar.find(needle.scalar) != std::string::npos;
    case AttributeType::kSS:
    case AttributeType::kBS:
      return (needle.type == AttributeType::kS && haystack.type == AttributeType::kSS) ||
                     (needle.type == AttributeType::kB && haystack.type == AttributeType::kBS)
                 ? std::find(haystack.members.begin(), haystack.members.end(), needle.scalar) !=
                       haystack.members.end()
                 : false;
    case AttributeType::kNS:
      if (needle.type != AttributeType::kN) return false;
      return std::any_of(haystack.members.begin(), haystack.members.end(), [&](const auto& m) {
        return CompareScalars(AttributeValue::Number(m), needle) == 0;
      });
    case AttributeType::kL:
      return std::any_of(
          haystack.list.begin(), haystack.list.end(),
          [&](const AttributeValue& element) { return ValuesEqual(element, needle); });
    default:
      return false;
  }
}

}  // namespace

int CompareScalars(const AttributeValue& a, const AttributeValue& b) {
  if (a.type == AttributeType::kN) {
    return Number::Parse(a.scalar).value().Compare(Number::Parse(b.scalar).value());
  }
  const int c =
      std::string_view(a.scalar).compare(b.scalar);  // char_traits<char> compares bytes unsigned
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

const AttributeValue* ResolvePath(const Item& item, const DocumentPath& path) {
  const AttributeValue* value = FindAttribute(item, path.empty() ? "" : path[0].name);
  for (size_t i = 1; value != nullptr && i < path.size(); ++i) {
    const PathElement& element = path[i];
    if (element.is_index()) {
      if (value->type != AttributeType::kL ||
          element.index >= static_cast<int64_t>(value->list.size())) {
        return nullptr;
      }
      value = &value->list[static_cast<size_t>(element.index)];
    } else {
      if (value->type != AttributeType::kM) return nullptr;
      value = FindAttribute(value->map, element.name);
    }
  }
  return value;
}

namespace {

// Every kind but AND, OR and NOT. Kept out of Evaluate so that its locals are not in the frame
// that recurses: a 300-level NOT chain costs ~1 KB per level in a debug build otherwise, which a
// 256 KB thread stack cannot hold (test_limits.py).
[[gnu::noinline]] bool EvaluateLeaf(const Condition& condition, const Item& item) {
  const auto& operands = condition.operands;
  switch (condition.kind) {
    case Condition::Kind::kCompare:
      return Compare(condition.comparator, OperandValue(operands[0], item),
                     OperandValue(operands[1], item));
    case Condition::Kind::kBetween: {
      auto value = OperandValue(operands[0], item);
      return Compare(Condition::Comparator::kGe, value, OperandValue(operands[1], item)) &&
             Compare(Condition::Comparator::kLe, value, OperandValue(operands[2], item));
    }
    case Condition::Kind::kIn: {
      auto value = OperandValue(operands[0], item);
      for (size_t i = 1; i < operands.size(); ++i) {
        if (Compare(Condition::Comparator::kEq, value, OperandValue(operands[i], item)))
          return true;
      }
      return false;
    }
    case Condition::Kind::kAnd:
    case Condition::Kind::kOr:
    case Condition::Kind::kNot:
      break;  // Evaluate's
    case Condition::Kind::kAttributeExists:
      return ResolvePath(item, operands[0].path) != nullptr;
    case Condition::Kind::kAttributeNotExists:
      return ResolvePath(item, operands[0].path) == nullptr;
    case Condition::Kind::kAttributeType: {  // of a path, or of a literal
      const auto value = OperandValue(operands[0], item);
      return value && TypeName(value->type) == operands[1].value.scalar;
    }
    case Condition::Kind::kBeginsWith: {
      auto value = OperandValue(operands[0], item);
      auto prefix = OperandValue(operands[1], item);
      return value && prefix && value->type == prefix->type &&
             (value->type == AttributeType::kS || value->type == AttributeType::kB) &&
             value->scalar.starts_with(prefix->scalar);
    }
    case Condition::Kind::kContains: {
      auto haystack = OperandValue(operands[0], item);
      auto needle = OperandValue(operands[1], item);
      return haystack && needle && Contains(*haystack, *needle);
    }
  }
  return false;
}

}  // namespace

std::optional<size_t> SizeOf(const AttributeValue& value) {
  switch (value.type) {
    case AttributeType::kS:
      return Utf8Length(value.scalar);
    case AttributeType::kB:
      return value.scalar.size();
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS:
      return value.members.size();
    case AttributeType::kL:
      return value.list.size();
    case AttributeType::kM:
      return value.map.size();
    default:
      return std::nullopt;
  }
}

// Recursion over AND, OR and NOT only; the parser bounds their depth by the operator limit.
bool Evaluate(const Condition& condition, const Item& item) {
  switch (condition.kind) {
    case Condition::Kind::kAnd:
      for (const Condition& child : condition.children) {
        if (!Evaluate(child, item)) return false;
      }
      return true;
    case Condition::Kind::kOr:
      for (const Condition& child : condition.children) {
        if (Evaluate(child, item)) return true;
      }
      return false;
    case Condition::Kind::kNot:
      return !Evaluate(condition.children[0], item);
    default:
      return EvaluateLeaf(condition, item);
  }
}

}  // namespace ddbd
