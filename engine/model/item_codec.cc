#include "engine/model/item_codec.h"

#include <algorithm>
#include <cstring>

namespace ddbd {
namespace {

// An item is encoded twice through PutValue: once counting its bytes, then writing them at a
// cursor into a blob sized once. Appended to a string, a 7-attribute item's blob grew four times
// on the way and paid a capacity check per byte and piece (~1,900 instructions; ~900 now).
class CountBytes {
 public:
  size_t size() const { return size_; }
  void Byte(char) { ++size_; }
  void Varint(size_t value) {
    do {
      ++size_;
      value >>= 7;
    } while (value != 0);
  }
  void Bytes(std::string_view bytes) {
    Varint(bytes.size());
    size_ += bytes.size();
  }

 private:
  size_t size_ = 0;
};

class WriteBytes {
 public:
  explicit WriteBytes(char* at) : at_(at) {}
  void Byte(char byte) { *at_++ = byte; }
  void Varint(size_t value) {
    while (value >= 0x80) {
      *at_++ = static_cast<char>((value & 0x7F) | 0x80);
      value >>= 7;
    }
    *at_++ = static_cast<char>(value);
  }
  void Bytes(std::string_view bytes) {
    Varint(bytes.size());
    std::memcpy(at_, bytes.data(), bytes.size());
    at_ += bytes.size();
  }

 private:
  char* at_;
};

template <typename Out>
void PutValue(Out& out, const AttributeValue& value) {
  out.Byte(static_cast<char>(value.type));
  switch (value.type) {
    case AttributeType::kS:
    case AttributeType::kN:
    case AttributeType::kB:
      out.Bytes(value.scalar);
      break;
    case AttributeType::kBool:
      out.Byte(value.boolean ? 1 : 0);
      break;
    case AttributeType::kNull:
      break;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS:
      out.Varint(value.members.size());
      for (const std::string& member : value.members) out.Bytes(member);
      break;
    case AttributeType::kL:
      out.Varint(value.list.size());
      for (const AttributeValue& element : value.list) PutValue(out, element);
      break;
    case AttributeType::kM:
      out.Varint(value.map.size());
      for (const auto& [name, element] : value.map) {
        out.Bytes(name);
        PutValue(out, element);
      }
      break;
  }
}

template <typename Out>
void PutItem(Out& out, const Item& item) {
  out.Varint(item.size());
  for (const auto& [name, value] : item) {
    out.Bytes(name);
    PutValue(out, value);
  }
}

AttributeValue ReadValue(BlobReader& reader) {
  AttributeValue value;
  value.type = reader.Type();
  switch (value.type) {
    case AttributeType::kS:
    case AttributeType::kN:
    case AttributeType::kB:
      value.scalar = reader.Bytes();
      break;
    case AttributeType::kBool:
      value.boolean = reader.Byte() != 0;
      break;
    case AttributeType::kNull:
      break;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS:
      value.members.resize(reader.Count());
      for (std::string& member : value.members) member = reader.Bytes();
      break;
    case AttributeType::kL:
      value.list.resize(reader.Count());
      for (AttributeValue& element : value.list) element = ReadValue(reader);
      break;
    case AttributeType::kM:
      value.map.resize(reader.Count());
      for (auto& [name, element] : value.map) {
        name = reader.Bytes();
        element = ReadValue(reader);
      }
      break;
  }
  return value;
}

// Moves past one value. Stored values nest at most 32 levels (checked on the way in), which
// bounds the recursion.
void SkipValue(BlobReader& reader) {
  switch (reader.Type()) {
    case AttributeType::kS:
    case AttributeType::kN:
    case AttributeType::kB:
      reader.Bytes();
      return;
    case AttributeType::kBool:
      reader.Byte();
      return;
    case AttributeType::kNull:
      return;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS:
      for (size_t count = reader.Count(); count > 0; --count) reader.Bytes();
      return;
    case AttributeType::kL:
      for (size_t count = reader.Count(); count > 0; --count) SkipValue(reader);
      return;
    case AttributeType::kM:
      for (size_t count = reader.Count(); count > 0; --count) {
        reader.Bytes();
        SkipValue(reader);
      }
      return;
  }
}

}  // namespace

std::optional<std::string_view> FindScalarAttribute(std::string_view blob, std::string_view name,
                                                    AttributeType type) {
  BlobReader reader(blob);
  for (size_t count = reader.Count(); count > 0; --count) {
    if (reader.Bytes() != name) {
      SkipValue(reader);
      continue;
    }
    if (reader.Type() != type) return std::nullopt;
    return reader.Bytes();
  }
  return std::nullopt;
}

std::optional<std::string_view> FindAttributeValue(std::string_view blob, std::string_view name) {
  BlobReader reader(blob);
  for (size_t count = reader.Count(); count > 0; --count) {
    const bool found = reader.Bytes() == name;
    const size_t start = reader.position();
    SkipValue(reader);
    if (found) return blob.substr(start, reader.position() - start);
  }
  return std::nullopt;
}

bool AttributeValueIs(std::string_view blob, std::string_view name,
                      std::optional<std::string_view> encoded) {
  BlobReader reader(blob);
  for (size_t count = reader.Count(); count > 0; --count) {
    if (reader.Bytes() != name) {
      SkipValue(reader);
      continue;
    }
    // A value's encoding is self-delimiting: if the blob goes on with all of `encoded`, its value
    // is exactly that, and a differing value usually differs in its first bytes.
    return encoded && blob.substr(reader.position()).starts_with(*encoded);
  }
  return !encoded;
}

std::string ProjectAttributes(std::string_view blob, std::span<const std::string_view> names) {
  BlobReader reader(blob);
  std::string attributes;
  size_t kept = 0;
  for (size_t count = reader.Count(); count > 0; --count) {
    const size_t start = reader.position();
    const std::string_view name = reader.Bytes();
    SkipValue(reader);
    if (std::find(names.begin(), names.end(), name) == names.end()) continue;
    attributes.append(blob.substr(start, reader.position() - start));
    ++kept;
  }
  CountBytes count;
  count.Varint(kept);
  std::string projected(count.size(), '\0');
  WriteBytes(projected.data()).Varint(kept);
  return projected + attributes;
}

namespace {

bool Equivalent(const AttributeValue& a, const AttributeValue& b);

bool EquivalentMaps(const AttributeMap& a, const AttributeMap& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, value] : a) {
    const AttributeValue* other = FindAttribute(b, name);
    if (other == nullptr || !Equivalent(value, *other)) return false;
  }
  return true;
}

// Nests as deep as stored values do: at most 32 levels.
bool Equivalent(const AttributeValue& a, const AttributeValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS: {
      if (a.members.size() != b.members.size()) return false;
      std::vector<std::string_view> left(a.members.begin(), a.members.end());
      std::vector<std::string_view> right(b.members.begin(), b.members.end());
      std::sort(left.begin(), left.end());
      std::sort(right.begin(), right.end());
      return left == right;
    }
    case AttributeType::kL:
      return std::equal(a.list.begin(), a.list.end(), b.list.begin(), b.list.end(), Equivalent);
    case AttributeType::kM:
      return EquivalentMaps(a.map, b.map);
    default:
      return a == b;
  }
}

}  // namespace

// The offset of the first byte where `a` and `b` (of one size) differ, or their size.
size_t FirstDifference(std::string_view a, std::string_view b) {
  size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) {
    uint64_t left;
    uint64_t right;
    std::memcpy(&left, a.data() + i, 8);
    std::memcpy(&right, b.data() + i, 8);
    if (left != right) break;
  }
  while (i < a.size() && a[i] == b[i]) ++i;
  return i;
}

bool SameItem(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;  // reordering keeps the size
  const size_t differ = FirstDifference(a, b);
  if (differ == a.size()) return true;
  // The attributes wholly before `differ` are the same bytes in both; the one it falls in
  // settles it when it is a scalar whose name matched (the common case: a value changed).
  BlobReader reader(a);
  const size_t count = reader.Count();
  for (size_t i = 0; i < count; ++i) {
    reader.Bytes();  // the name
    const size_t value_start = reader.position();
    SkipValue(reader);
    if (reader.position() <= differ) continue;
    if (differ < value_start) break;  // another name here: maybe another order, decoded below
    const auto type = static_cast<AttributeType>(a[value_start]);
    const bool nested = type == AttributeType::kM || type == AttributeType::kL ||
                        type == AttributeType::kSS || type == AttributeType::kNS ||
                        type == AttributeType::kBS;
    if (differ == value_start || !nested) return false;  // another type, or another scalar
    break;  // a value that may only be reordered: decoded below
  }
  return EquivalentMaps(DecodeItem(a), DecodeItem(b));
}

std::string EncodeItem(const Item& item) {
  CountBytes count;
  PutItem(count, item);
  std::string blob(count.size(), '\0');
  WriteBytes write(blob.data());
  PutItem(write, item);
  return blob;
}

Item DecodeItem(std::string_view blob) {
  BlobReader reader(blob);
  Item item(reader.Count());
  for (auto& [name, value] : item) {
    name = reader.Bytes();
    value = ReadValue(reader);
  }
  return item;
}

}  // namespace ddbd
