#include "engine/model/attribute_value.h"

#include <algorithm>

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

namespace {

// The order of two magnitudes in canonical text (Number::ToString's: no leading zeros, "0.x"
// below one, no trailing zeros after the point): the longer whole part, then the digits.
int CompareMagnitudes(std::string_view a, std::string_view b) {
  const size_t a_point = std::min(a.find('.'), a.size());
  const size_t b_point = std::min(b.find('.'), b.size());
  std::string_view a_whole = a.substr(0, a_point);
  std::string_view b_whole = b.substr(0, b_point);
  if (a_whole == "0") a_whole = {};
  if (b_whole == "0") b_whole = {};
  if (a_whole.size() != b_whole.size()) return a_whole.size() < b_whole.size() ? -1 : 1;
  if (const int whole = a_whole.compare(b_whole); whole != 0) return whole;
  return a.substr(std::min(a_point + 1, a.size()))
      .compare(b.substr(std::min(b_point + 1, b.size())));
}

}  // namespace

bool SetMemberLess(AttributeType type, std::string_view a, std::string_view b) {
  if (type != AttributeType::kNS) return a < b;  // char_traits<char> compares bytes unsigned
  // Numbers are stored in canonical text: ordered without parsing them (an NS answer checks its
  // order on every read).
  const bool a_negative = a.starts_with('-');
  const bool b_negative = b.starts_with('-');
  if (a_negative != b_negative) return a_negative;
  if (!a_negative) return CompareMagnitudes(a, b) < 0;
  return CompareMagnitudes(a.substr(1), b.substr(1)) > 0;
}

void SortSetMembers(AttributeValue& set) {
  const AttributeType type = set.type;
  const auto less = [type](const std::string& a, const std::string& b) {
    return SetMemberLess(type, a, b);
  };
  if (!std::is_sorted(set.members.begin(), set.members.end(), less)) {
    std::sort(set.members.begin(), set.members.end(), less);
  }
}

const AttributeValue* FindAttribute(const Item& item, std::string_view name) {
  for (const auto& [attribute_name, value] : item) {
    if (attribute_name == name) return &value;
  }
  return nullptr;
}

namespace {

// DynamoDB's size of a number, as measured against it (../shared/aws-semantics.md section 1):
// leading and trailing zeros trimmed, then 1 + ceil(integer digits / 2) + ceil(fraction digits /
// 2), plus 1 if negative. So 0.0000001 is 2 bytes, -42 is 3 and 1E125 is 2.
size_t NumberSize(const std::string& canonical_text) {
  std::string_view text = canonical_text;
  const bool negative = text.starts_with('-');
  if (negative) text.remove_prefix(1);
  const size_t point = text.find('.');
  std::string_view integer = text.substr(0, point);
  std::string_view fraction = point == std::string_view::npos ? "" : text.substr(point + 1);
  while (integer.starts_with('0')) integer.remove_prefix(1);
  while (fraction.ends_with('0')) fraction.remove_suffix(1);
  if (fraction.empty()) {
    while (integer.ends_with('0')) integer.remove_suffix(1);
  }
  if (integer.empty()) {
    while (fraction.starts_with('0')) fraction.remove_prefix(1);
  }
  if (integer.empty() && fraction.empty()) return 1 + 1;  // zero: one digit
  return 1 + (integer.size() + 1) / 2 + (fraction.size() + 1) / 2 + (negative ? 1 : 0);
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

namespace {

// Whether a map or list stands deeper than kMaxContainerLevel in `value`, at `level`; the
// recursion ends there, so it is bounded whatever the value holds.
bool ContainerTooDeep(const AttributeValue& value, int level) {
  if (value.type != AttributeType::kM && value.type != AttributeType::kL) return false;
  if (level > kMaxContainerLevel) return true;
  if (value.type == AttributeType::kL) {
    for (const AttributeValue& member : value.list) {
      if (ContainerTooDeep(member, level + 1)) return true;
    }
    return false;
  }
  for (const auto& [name, member] : value.map) {
    if (ContainerTooDeep(member, level + 1)) return true;
  }
  return false;
}

}  // namespace

bool NestsTooDeep(const Item& item) {
  for (const auto& [name, value] : item) {
    if (ContainerTooDeep(value, 1)) return true;
  }
  return false;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += name.size() + ValueSize(value);
  return size;
}

}  // namespace ddbd
