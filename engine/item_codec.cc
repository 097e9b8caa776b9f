#include "engine/item_codec.h"

namespace ddbd {
namespace {

void PutVarint(std::string& out, size_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void PutBytes(std::string& out, std::string_view bytes) {
  PutVarint(out, bytes.size());
  out.append(bytes);
}

void PutValue(std::string& out, const AttributeValue& value) {
  out.push_back(static_cast<char>(value.type));
  switch (value.type) {
    case AttributeType::kS:
    case AttributeType::kN:
    case AttributeType::kB:
      PutBytes(out, value.scalar);
      break;
    case AttributeType::kBool:
      out.push_back(value.boolean ? 1 : 0);
      break;
    case AttributeType::kNull:
      break;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS:
      PutVarint(out, value.members.size());
      for (const std::string& member : value.members) PutBytes(out, member);
      break;
    case AttributeType::kL:
      PutVarint(out, value.list.size());
      for (const AttributeValue& element : value.list) PutValue(out, element);
      break;
    case AttributeType::kM:
      PutVarint(out, value.map.size());
      for (const auto& [name, element] : value.map) {
        PutBytes(out, name);
        PutValue(out, element);
      }
      break;
  }
}

class Reader {
 public:
  explicit Reader(std::string_view blob) : blob_(blob) {}

  size_t Varint() {
    size_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(blob_[position_++]);
      value |= static_cast<size_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
  }
  std::string Bytes() {
    const size_t size = Varint();
    std::string bytes(blob_.substr(position_, size));
    position_ += size;
    return bytes;
  }
  uint8_t Byte() { return static_cast<uint8_t>(blob_[position_++]); }

  AttributeValue Value() {
    AttributeValue value;
    value.type = static_cast<AttributeType>(Byte());
    switch (value.type) {
      case AttributeType::kS:
      case AttributeType::kN:
      case AttributeType::kB:
        value.scalar = Bytes();
        break;
      case AttributeType::kBool:
        value.boolean = Byte() != 0;
        break;
      case AttributeType::kNull:
        break;
      case AttributeType::kSS:
      case AttributeType::kNS:
      case AttributeType::kBS:
        value.members.resize(Varint());
        for (std::string& member : value.members) member = Bytes();
        break;
      case AttributeType::kL:
        value.list.resize(Varint());
        for (AttributeValue& element : value.list) element = Value();
        break;
      case AttributeType::kM:
        value.map.resize(Varint());
        for (auto& [name, element] : value.map) {
          name = Bytes();
          element = Value();
        }
        break;
    }
    return value;
  }

 private:
  std::string_view blob_;
  size_t position_ = 0;
};

}  // namespace

std::string EncodeItem(const Item& item) {
  std::string blob;
  PutVarint(blob, item.size());
  for (const auto& [name, value] : item) {
    PutBytes(blob, name);
    PutValue(blob, value);
  }
  return blob;
}

Item DecodeItem(std::string_view blob) {
  Reader reader(blob);
  Item item(reader.Varint());
  for (auto& [name, value] : item) {
    name = reader.Bytes();
    value = reader.Value();
  }
  return item;
}

}  // namespace ddbd
