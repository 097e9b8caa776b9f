#include "engine/model/attribute_value.h"

#include "engine/model/number.h"

namespace ddbd {

std::string_view TypeName(AttributeType type) {
  switch (type) {
    case AttributeType::kS:
      return "S";
    case AttributeType::kN:
      return "N";
    case AttributeType::kB:
      return "B";
    case AttributeType::kBool:
      return "BOOL";
    case AttributeType::kNull:
      return "NULL";
    case AttributeType::kM:
      return "M";
    case AttributeType::kL:
      return "L";
    case AttributeType::kSS:
      return "SS";
    case AttributeType::kNS:
      return "NS";
    case AttributeType::kBS:
      return "BS";
  }
  return "NULL";
}

AttributeValue::AttributeValue() = default;
AttributeValue::~AttributeValue() = default;
AttributeValue::AttributeValue(const AttributeValue& other) = default;
AttributeValue::AttributeValue(AttributeValue&& other) noexcept = default;
AttributeValue& AttributeValue::operator=(const AttributeValue& other) = default;
AttributeValue& AttributeValue::operator=(AttributeValue&& other) noexcept = default;

AttributeValue AttributeValue::String(std::string text) {
  AttributeValue value;
  value.type = AttributeType::kS;
  value.scalar = std::move(text);
  return value;
}

AttributeValue AttributeValue::Number(std::string canonical_text) {
  AttributeValue value;
  value.type = AttributeType::kN;
  value.scalar = std::move(canonical_text);
  return value;
}

AttributeValue AttributeValue::Binary(std::string bytes) {
  AttributeValue value;
  value.type = AttributeType::kB;
  value.scalar = std::move(bytes);
  return value;
}

AttributeValue AttributeValue::Boolean(bool flag) {
  AttributeValue value;
  value.type = AttributeType::kBool;
  value.boolean = flag;
  return value;
}

AttributeValue AttributeValue::Null() { return AttributeValue(); }

bool AttributeValue::operator==(const AttributeValue& other) const {
  return type == other.type && scalar == other.scalar && boolean == other.boolean &&
         members == other.members && list == other.list && map == other.map;
}

const AttributeValue* FindAttribute(const Item& item, std::string_view name) {
  for (const auto& [attribute_name, value] : item) {
    if (attribute_name == name) return &value;
  }
  return nullptr;
}

namespace {

size_t NumberSize(const std::string& canonical_text) {
  // Canonical text has no exponent: significant digits run from the first to the last non-zero.
  const size_t first = canonical_text.find_first_of("123456789");
  if (first == std::string::npos) return 1 + 1;  // zero: one digit
  const size_t last = canonical_text.find_last_of("123456789");
  size_t digits = 0;
  for (size_t i = first; i <= last; ++i) digits += canonical_text[i] != '.';
  return (digits + 1) / 2 + 1;
}

}  // namespace

size_t ValueSize(const AttributeValue& value) {
  switch (value.type) {
    case AttributeType::kS:
    case AttributeType::kB:
      return value.scalar.size();
    case AttributeType::kN:
      return NumberSize(value.scalar);
    case AttributeType::kBool:
    case AttributeType::kNull:
      return 1;
    case AttributeType::kSS:
    case AttributeType::kBS: {
      size_t size = 0;
      for (const std::string& member : value.members) size += member.size();
      return size;
    }
    case AttributeType::kNS: {
      size_t size = 0;
      for (const std::string& member : value.members) size += NumberSize(member);
      return size;
    }
    case AttributeType::kL: {
      size_t size = 3;
      for (const AttributeValue& element : value.list) size += 1 + ValueSize(element);
      return size;
    }
    case AttributeType::kM: {
      size_t size = 3;
      for (const auto& [name, element] : value.map) size += 1 + name.size() + ValueSize(element);
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += name.size() + ValueSize(value);
  return size;
}

}  // namespace ddbd
