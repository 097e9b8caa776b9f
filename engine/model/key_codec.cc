#include "engine/model/key_codec.h"

#include <algorithm>
#include <array>
#include <bit>

#include "engine/model/number.h"

namespace ddbd {
namespace {

// Bytes with 0x00 escaped as 0x00 0xFF and a 0x00 0x01 terminator: order-preserving, and no
// encoding is a prefix of another.
void AppendEscaped(std::string& out, std::string_view bytes) {
  for (char c : bytes) {
    out.push_back(c);
    if (c == '\0') out.push_back('\xFF');
  }
  out.push_back('\0');
  out.push_back('\x01');
}

}  // namespace

void AppendKeyValue(std::string& out, const AttributeValue& value) {
  AppendKeyValue(out, value.type, value.scalar);
}

void AppendKeyValue(std::string& out, AttributeType type, std::string_view scalar) {
  if (type == AttributeType::kN) {
    // Stored numbers are canonical text, which always parses.
    if (!Number::AppendOrderedBytesOfText(out, scalar)) {
      Number::Parse(scalar).value().AppendOrderedBytes(out);
    }
  } else {
    AppendEscaped(out, scalar);
  }
}

namespace {

// Where the key value of type `type` that starts at `offset` of `key` ends.
size_t ValueEnd(std::string_view key, size_t offset, AttributeType type) {
  if (type != AttributeType::kN) {
    // An escaped 0x00 is followed by 0xFF, so the first 0x00 0x01 is the terminator.
    const size_t end = key.find(std::string_view("\0\x01", 2), offset);
    return end == std::string_view::npos ? key.size() : end + 2;
  }
  // Numbers (Number::AppendOrderedBytes): 0x02 alone for zero, else a sign byte, an exponent
  // byte, digits and a terminator (0x00 when positive, 0xFF when negative).
  if (key.size() <= offset || key[offset] == '\x02') return std::min(key.size(), offset + 1);
  const char terminator = key[offset] == '\x03' ? '\x00' : '\xFF';
  const size_t end = key.find(terminator, offset + 2);
  return end == std::string_view::npos ? key.size() : end + 1;
}

constexpr size_t kHash = 8;

}  // namespace

size_t PartitionPrefixLength(std::string_view key, AttributeType type) {
  return ValueEnd(key, kHash, type);
}

size_t PartitionPrefixLength(std::string_view key, std::span<const AttributeType> types) {
  size_t end = kHash;
  for (AttributeType type : types) end = ValueEnd(key, end, type);
  return end;
}

uint64_t StablePartitionHash(std::string_view bytes) {
  // FNV-1a over the bytes, then MurmurHash3's 64-bit finalizer to spread the bits.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3ull;
  }
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdull;
  hash ^= hash >> 33;
  hash *= 0xc4ceb9fe1a85ec53ull;
  hash ^= hash >> 33;
  return hash;
}

std::array<char, 8> PartitionHashBytes(uint64_t hash) {
  static_assert(std::endian::native == std::endian::little);  // one swap: x86 and ARM
  return std::bit_cast<std::array<char, 8>>(__builtin_bswap64(hash));
}

void EndPartition(std::string& key) {
  const std::array<char, 8> hash =
      PartitionHashBytes(StablePartitionHash(std::string_view(key).substr(8)));
  std::copy(hash.begin(), hash.end(), key.begin());
}

std::string EncodeTableKey(const AttributeValue& partition, const AttributeValue* sort) {
  std::string partition_bytes;
  AppendKeyValue(partition_bytes, partition);
  const uint64_t hash = StablePartitionHash(partition_bytes);
  std::string key;
  key.reserve(8 + partition_bytes.size() + 16);
  const std::array<char, 8> hash_bytes = PartitionHashBytes(hash);
  key.append(hash_bytes.data(), hash_bytes.size());
  key += partition_bytes;
  if (sort != nullptr) AppendKeyValue(key, *sort);
  return key;
}

}  // namespace ddbd
