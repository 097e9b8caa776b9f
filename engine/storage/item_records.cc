#include "engine/storage/item_records.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "engine/storage/mapped_records.h"

namespace ddbd {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "KeyPrefix byte-swaps a native load");

ItemRecord::ItemRecord(uint32_t key_size, uint32_t blob_size, uint32_t item_size)
    : key_bits_(key_size | (blob_size << kKeyBits)),
      size_bits_(item_size | ((blob_size >> (32 - kKeyBits)) << kSizeBits)) {}

std::string_view ItemRecord::key() const {
  return {reinterpret_cast<const char*>(this + 1), key_size()};
}

std::string_view ItemRecord::blob() const {
  const char* data = reinterpret_cast<const char*>(this + 1) + key_size();
  const uint32_t size = blob_size();
  if (size != kWholeItem) [[likely]]
    return {data, size};
  return item()->blob();
}

const ItemRecord* ItemRecord::item() const {
  const ItemRecord* item;
  std::memcpy(&item, reinterpret_cast<const char*>(this + 1) + key_size(), sizeof(item));
  return item;
}

namespace {

void CheckSizes(size_t key, size_t blob, uint32_t item_size) {
  if (key > ItemRecord::kMaxKeySize || blob > ItemRecord::kMaxBlobSize ||
      item_size > ItemRecord::kMaxItemSize) {
    throw std::length_error("an item record past its header's sizes");
  }
}

}  // namespace

ItemRecord* ItemRecord::CreateWholeItemEntry(std::string_view key, const ItemRecord* item) {
  CheckSizes(key.size(), 0, item->item_size());
  void* memory = ::operator new(sizeof(ItemRecord) + key.size() + sizeof(item));
  auto* record =
      new (memory) ItemRecord(static_cast<uint32_t>(key.size()), kWholeItem, item->item_size());
  char* data = reinterpret_cast<char*>(record + 1);
  std::memcpy(data, key.data(), key.size());
  std::memcpy(data + key.size(), &item, sizeof(item));
  return record;
}

ItemRecord* ItemRecord::Create(std::string_view key, std::string_view blob, uint32_t item_size) {
  CheckSizes(key.size(), blob.size(), item_size);
  void* memory = ::operator new(sizeof(ItemRecord) + key.size() + blob.size());
  auto* record = new (memory)
      ItemRecord(static_cast<uint32_t>(key.size()), static_cast<uint32_t>(blob.size()), item_size);
  char* data = reinterpret_cast<char*>(record + 1);
  std::memcpy(data, key.data(), key.size());
  std::memcpy(data + key.size(), blob.data(), blob.size());
  return record;
}

void ItemRecord::Destroy(ItemRecord* record) {
  // A checkpoint's image in a mapped file (mapped_records.h): counted down, not freed.
  if (mapped_records::ReleaseRecord(record)) return;
  record->~ItemRecord();
  ::operator delete(record);
}

// The header, key and start of the blob: what a walk reads first. A fixed span, as reading the
// record's size would wait for the very miss this hides (a prefetch past the end never faults).
void PrefetchRecord(const ItemRecord* record) {
  const char* bytes = reinterpret_cast<const char*>(record);
  for (int offset = 0; offset < 256; offset += 64) __builtin_prefetch(bytes + offset);
}

uint64_t KeyPrefix(std::string_view key) {
  uint64_t prefix = 0;
  if (key.size() >= 8) {  // every table and index key: one load
    std::memcpy(&prefix, key.data(), 8);
    return __builtin_bswap64(prefix);  // x86 and ARM are little-endian
  }
  for (size_t i = 0; i < key.size(); ++i) {
    prefix |= static_cast<uint64_t>(static_cast<uint8_t>(key[i])) << (56 - 8 * i);
  }
  return prefix;  // a shorter key is zero-padded, which keeps the byte order
}

bool BelowUpper(const KeyRange& range, std::string_view key) {
  if (!range.has_upper) return true;
  return range.upper_inclusive ? key <= range.upper : key < range.upper;
}

bool AboveLower(const KeyRange& range, std::string_view key) {
  return range.lower_inclusive ? key >= range.lower : key > range.lower;
}

RecordTree::const_iterator RangeBegin(const RecordTree& tree, const KeyRange& range) {
  return range.lower_inclusive ? tree.lower_bound(std::string_view(range.lower))
                               : tree.upper_bound(std::string_view(range.lower));
}

SlotSpan::iterator RangeBegin(SlotSpan slots, const ByRecordKey& by, const KeyRange& range) {
  const std::string_view lower = range.lower;
  return range.lower_inclusive ? std::lower_bound(slots.begin(), slots.end(), lower, by)
                               : std::upper_bound(slots.begin(), slots.end(), lower, by);
}

RecordTree::const_iterator RangeEnd(const RecordTree& tree, const KeyRange& range) {
  return !range.has_upper        ? tree.end()
         : range.upper_inclusive ? tree.upper_bound(std::string_view(range.upper))
                                 : tree.lower_bound(std::string_view(range.upper));
}

SlotSpan::iterator RangeEnd(SlotSpan slots, const ByRecordKey& by, const KeyRange& range) {
  const std::string_view upper = range.upper;
  return !range.has_upper        ? slots.end()
         : range.upper_inclusive ? std::upper_bound(slots.begin(), slots.end(), upper, by)
                                 : std::lower_bound(slots.begin(), slots.end(), upper, by);
}

void WalkTree(const RecordTree& tree, const KeyRange& range, bool forward, const Visit& visit) {
  if (forward) {
    VisitForward(tree, RangeBegin(tree, range), range, visit);
  } else {
    VisitBackward(tree, RangeEnd(tree, range), range, visit);
  }
}

}  // namespace ddbd
