#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

constexpr uint32_t kInteger = 0;
constexpr uint32_t kBytes = 1;

}  // namespace

void FieldWriter::Varint(uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void FieldWriter::Int(uint32_t number, int64_t value) {
  Varint(uint64_t{number} << 2 | kInteger);
  const auto bits = static_cast<uint64_t>(value);
  Varint((bits << 1) ^ (value < 0 ? ~uint64_t{0} : 0));
}

size_t FieldWriter::BytesHeaderSize(uint32_t number, size_t size) {
  auto varint_size = [](uint64_t value) {
    size_t bytes = 1;
    while (value >= 0x80) {
      value >>= 7;
      ++bytes;
    }
    return bytes;
  };
  return varint_size(uint64_t{number} << 2 | kBytes) + varint_size(size);
}

void FieldWriter::Bytes(uint32_t number, std::string_view value) {
  Varint(uint64_t{number} << 2 | kBytes);
  Varint(value.size());
  out_.append(value);
}

std::optional<uint64_t> FieldReader::LongVarint() {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at_ >= bytes_.size()) return std::nullopt;
    const auto byte = static_cast<uint8_t>(bytes_[at_++]);
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return std::nullopt;
}

bool FieldReader::Next() {
  if (!ok_ || at_ >= bytes_.size()) return false;
  const std::optional<uint64_t> tag = Varint();
  std::optional<uint64_t> value = tag ? Varint() : std::nullopt;
  if (!tag || !value || (*tag >> 2) > UINT32_MAX) {
    ok_ = false;
    return false;
  }
  number_ = static_cast<uint32_t>(*tag >> 2);
  switch (*tag & 3) {
    case kInteger:
      integer_ = static_cast<int64_t>((*value >> 1) ^ (~(*value & 1) + 1));
      text_ = {};
      return true;
    case kBytes:
      if (*value > bytes_.size() - at_) {
        ok_ = false;
        return false;
      }
      text_ = bytes_.substr(at_, *value);
      at_ += *value;
      integer_ = 0;
      return true;
    default:
      ok_ = false;
      return false;
  }
}

}  // namespace ddbd
