// Stored items are one contiguous blob each, not a tree of heap nodes: attribute count, then
// (name, type, payload) per attribute, lengths as varints. Compact in memory, cheap to copy, and
// the form persistence will write.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/model/attribute_value.h"

namespace ddbd {

std::string EncodeItem(const Item& item);
// `blob` must come from EncodeItem.
Item DecodeItem(std::string_view blob);

// Whether two blobs hold the same item up to the order of map members (the item's attributes,
// any M value's) and of set members: DynamoDB makes no change, and no stream record, of a write
// that only reorders them (../shared/behaviours-to-match.md F2). Byte-equal blobs are the same;
// blobs of different sizes are not (reordering keeps the size); the attribute holding the first
// differing byte settles the common case, a write that changes a scalar, without decoding.
bool SameItem(std::string_view a, std::string_view b);

// The payload of the top-level attribute `name` if it is there with type `type` (S, N or B),
// without decoding the item: what the TTL index reads of every write.
std::optional<std::string_view> FindScalarAttribute(std::string_view blob, std::string_view name,
                                                    AttributeType type);
// The encoded value (its type byte, then its payload) of the top-level attribute `name`, without
// decoding the item: what a vector index reads of every write (a BlobReader reads it).
std::optional<std::string_view> FindAttributeValue(std::string_view blob, std::string_view name);
// Whether the top-level attribute `name` of `blob` is encoded exactly as `encoded` (a value
// FindAttributeValue gave; none: the attribute is absent), comparing bytes without walking the
// value: a write that left an attribute alone is told from one that changed it cheaply.
bool AttributeValueIs(std::string_view blob, std::string_view name,
                      std::optional<std::string_view> encoded);
// A blob of the top-level attributes of `blob` named in `names`, copied byte for byte: an item's
// key attributes, for a stream record's Keys.
std::string ProjectAttributes(std::string_view blob, std::span<const std::string_view> names);

// The blob's primitives, shared by DecodeItem and VisitItemBlob.
class BlobReader {
 public:
  explicit BlobReader(std::string_view blob) : blob_(blob) {}
  size_t Count() {
    const auto first = static_cast<uint8_t>(blob_[position_]);
    if (first < 0x80) {  // a length or count below 128: most of them
      ++position_;
      return first;
    }
    size_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(blob_[position_++]);
      value |= static_cast<size_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
  }
  std::string_view Bytes() {
    const size_t size = Count();
    // Unchecked: a blob is the engine's own encoding (substr's bounds check cost ~10% of a stored
    // item's JSON).
    const std::string_view bytes(blob_.data() + position_, size);
    position_ += size;
    return bytes;
  }
  uint8_t Byte() { return static_cast<uint8_t>(blob_[position_++]); }
  size_t position() const { return position_; }
  AttributeType Type() { return static_cast<AttributeType>(Byte()); }
  AttributeType PeekType() const { return static_cast<AttributeType>(blob_[position_]); }

 private:
  std::string_view blob_;
  size_t position_ = 0;
};

// Walks a blob from EncodeItem without building an Item, for encoders that only pass the item
// on (a Query's page): decoding allocates a node per name and value, this allocates nothing.
// The visitor gets StartMap(count), then per attribute Name(name) and its value, then EndMap();
// a value is Scalar(type, bytes) for S/N/B, Bool(b), Null(), StartSet(type, count) +
// SetMember(bytes)... + EndSet(), StartList(count) + values + EndList(), or a map as above.
template <typename Visitor>
void VisitItemValue(BlobReader& reader, Visitor& visitor);

template <typename Visitor>
void VisitItemMap(BlobReader& reader, Visitor& visitor) {
  const size_t count = reader.Count();
  visitor.StartMap(count);
  for (size_t i = 0; i < count; ++i) {
    visitor.Name(reader.Bytes());
    // A string or number (most attributes) is visited here: the recursive call for it cost more
    // than writing it.
    const AttributeType type = reader.PeekType();
    if (type == AttributeType::kS || type == AttributeType::kN) {
      reader.Byte();
      visitor.Scalar(type, reader.Bytes());
    } else {
      VisitItemValue(reader, visitor);
    }
  }
  visitor.EndMap();
}

template <typename Visitor>
void VisitItemValue(BlobReader& reader, Visitor& visitor) {
  const AttributeType type = reader.Type();
  switch (type) {
    case AttributeType::kS:
    case AttributeType::kN:
    case AttributeType::kB:
      visitor.Scalar(type, reader.Bytes());
      return;
    case AttributeType::kBool:
      visitor.Bool(reader.Byte() != 0);
      return;
    case AttributeType::kNull:
      visitor.Null();
      return;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS: {
      const size_t count = reader.Count();
      visitor.StartSet(type, count);
      for (size_t i = 0; i < count; ++i) visitor.SetMember(reader.Bytes());
      visitor.EndSet();
      return;
    }
    case AttributeType::kL: {
      const size_t count = reader.Count();
      visitor.StartList(count);
      for (size_t i = 0; i < count; ++i) VisitItemValue(reader, visitor);
      visitor.EndList();
      return;
    }
    case AttributeType::kM:
      VisitItemMap(reader, visitor);
      return;
  }
}

template <typename Visitor>
void VisitItemBlob(std::string_view blob, Visitor& visitor) {
  BlobReader reader(blob);
  VisitItemMap(reader, visitor);
}

}  // namespace ddbd
