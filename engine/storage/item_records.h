// Items as the engine keeps them in memory: one allocation per item (ItemRecord), trees of them
// ordered by key bytes (RecordTree), and walks over a range of keys in one tree.
#pragma once

#include <absl/container/btree_set.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "engine/model/stored_item.h"

namespace ddbd {

// A range of key bytes. An empty `upper` with `has_upper` false means "to the end".
struct KeyRange {
  std::string lower;
  bool lower_inclusive = true;
  std::string upper;
  bool upper_inclusive = false;
  bool has_upper = false;
  // When not empty, the bytes of the one partition (hash and partition key) every key in the
  // range starts with, as for a Query: a table kept by partitions finds it by hash.
  std::string partition;
};

// Called for each item of a walk, in order, until it returns false.
using Visit = std::function<bool(std::string_view key, std::string_view blob, uint32_t size)>;

// One allocation: this header, then key bytes, then blob bytes (or the same bytes in a mapped
// checkpoint, mapped_records.h: Destroy tells them apart). Or, for an index entry that
// projects the whole item (ALL), the key bytes and a pointer to the table's record of the item
// (blob size kWholeItem), whose blob it reads: such an entry costs its key and 8 bytes, where
// a copy cost the item again. The table keeps it current under its write lock: an item's new
// record comes with new records of its entries (TableItems::ApplyLocked).
//
// The header is 8 bytes, the three sizes packed (it was three 32-bit sizes: 4 bytes more for
// every item and index entry, and for a record near a size class of the allocator, a class
// more). An item is at most 400 KB (DynamoDB's size, checked before anything is stored), so its
// key and its blob (a number's text is at most about 4 times its size) fit with room to spare.
struct ItemRecord {
  static constexpr uint32_t kKeyBits = 20;
  static constexpr uint32_t kSizeBits = 22;  // the blob's and the item's
  static constexpr uint32_t kMaxKeySize = (uint32_t{1} << kKeyBits) - 1;
  static constexpr uint32_t kWholeItem = (uint32_t{1} << kSizeBits) - 1;
  static constexpr uint32_t kMaxBlobSize = kWholeItem - 1;
  static constexpr uint32_t kMaxItemSize = kWholeItem;

  uint32_t key_size() const { return key_bits_ & kMaxKeySize; }
  uint32_t blob_size() const {  // or kWholeItem
    return (key_bits_ >> kKeyBits) | ((size_bits_ >> kSizeBits) << (32 - kKeyBits));
  }
  uint32_t item_size() const { return size_bits_ & kMaxItemSize; }
  std::string_view key() const;
  std::string_view blob() const;
  bool whole_item() const { return blob_size() == kWholeItem; }
  // A whole-item entry's table record.
  const ItemRecord* item() const;
  StoredItem Copy() const { return StoredItem{std::string(blob()), item_size()}; }
  static ItemRecord* Create(std::string_view key, const StoredItem& item) {
    return Create(key, item.blob, item.size_bytes);
  }
  // std::length_error past the limits above (no stored item reaches them).
  static ItemRecord* Create(std::string_view key, std::string_view blob, uint32_t item_size);
  // An index entry with key bytes `key` reading the blob and size of table record `item`.
  static ItemRecord* CreateWholeItemEntry(std::string_view key, const ItemRecord* item);
  static void Destroy(ItemRecord* record);

  // The header of a record of these sizes, as memory and a checkpoint's images hold it.
  ItemRecord(uint32_t key_size, uint32_t blob_size, uint32_t item_size);

 private:
  // The key size in the low 20 bits, the blob size's low 12 above it; the item size in the low
  // 22 bits of the second word, the blob size's high 10 above it. The key size, read by every
  // comparison, is one mask.
  uint32_t key_bits_;
  uint32_t size_bits_;
};
static_assert(sizeof(ItemRecord) == 8 && alignof(ItemRecord) == 4);

// Asks the CPU to start loading a record a walk or read will use soon.
void PrefetchRecord(const ItemRecord* record);

// A key's first 8 bytes as a big-endian integer, which orders like the bytes themselves (a
// shorter key is zero-padded).
uint64_t KeyPrefix(std::string_view key);

// A tree slot: the record and 8 bytes of its key from the tree's `offset` as an integer. Keys
// that share their first `offset` bytes (a table's keys start with an 8-byte partition hash; the
// items of one partition share all of its bytes) are then mostly ordered by the slot alone,
// without touching the record (a cache miss each).
struct RecordSlot {
  uint64_t prefix;
  // Mutable: a record replaced by one with the same key bytes takes its slot in place, as the
  // order does not change.
  mutable ItemRecord* record;
  RecordSlot(ItemRecord* r, size_t offset)
      : prefix(KeyPrefix(r->key().substr(offset))), record(r) {}  // keys have offset bytes
  ItemRecord* operator->() const { return record; }
};

// Orders slots, and keys given as bytes, by key bytes. Every key a tree holds or is searched for
// has at least `offset` bytes.
struct ByRecordKey {
  using is_transparent = void;
  size_t offset = 0;
  uint64_t PrefixOf(std::string_view key) const {
    return key.size() > offset ? KeyPrefix(key.substr(offset)) : 0;
  }
  bool operator()(const RecordSlot& a, const RecordSlot& b) const {
    return a.prefix != b.prefix ? a.prefix < b.prefix : a->key() < b->key();
  }
  bool operator()(const RecordSlot& a, std::string_view b) const {
    const uint64_t b_prefix = PrefixOf(b);
    return a.prefix != b_prefix ? a.prefix < b_prefix : a->key() < b;
  }
  bool operator()(std::string_view a, const RecordSlot& b) const {
    const uint64_t a_prefix = PrefixOf(a);
    return a_prefix != b.prefix ? a_prefix < b.prefix : a < b->key();
  }
};

using RecordTree = absl::btree_set<RecordSlot, ByRecordKey>;

// A small partition's slots: a sorted array.
using SlotSpan = std::span<const RecordSlot>;

// The first slot in `range` (end() if none). Keys compared must have the slots' offset bytes.
RecordTree::const_iterator RangeBegin(const RecordTree& tree, const KeyRange& range);
SlotSpan::iterator RangeBegin(SlotSpan slots, const ByRecordKey& by, const KeyRange& range);
// The slot after the last one in `range`, for a backward walk.
RecordTree::const_iterator RangeEnd(const RecordTree& tree, const KeyRange& range);
SlotSpan::iterator RangeEnd(SlotSpan slots, const ByRecordKey& by, const KeyRange& range);

bool BelowUpper(const KeyRange& range, std::string_view key);
bool AboveLower(const KeyRange& range, std::string_view key);
// How many records a walk asks the CPU to load ahead of the one it visits, so their cache misses
// overlap with the visits before them (on a large table each record is a miss of its own). A
// walk over one table-wide tree (or an index's) may run past the range, where loads are wasted,
// and looks 3 ahead; a partition's slots end with the partition, and 6 ahead took 0.7 us off a
// 10-item Query on 1M items (five A/B runs; 8 and more were slower on the table-wide tree).
inline constexpr int kTreePrefetch = 3;
inline constexpr int kPartitionPrefetch = 6;

// Visits slots of `slots` (a tree or an array) from `from` forward while below the range's upper
// bound; or, backward, those before `to` while above its lower bound. Both return false once the
// walk is over (the visit said stop or a bound was passed), true when the slots ran out first.
// `upper_above_all`: the caller knows every item from `from` on is below the range's upper bound
// (a Query's partition walked to its end), so no item's key is compared with it.
template <typename Slots, typename Iterator>
bool VisitForward(const Slots& slots, Iterator from, const KeyRange& range, const Visit& visit,
                  int prefetch = kTreePrefetch, bool upper_above_all = false) {
  auto ahead = from;
  for (int i = 0; i < prefetch && ahead != slots.end(); ++i) {
    PrefetchRecord((ahead++)->record);
  }
  for (auto it = from; it != slots.end(); ++it) {
    if (ahead != slots.end()) PrefetchRecord((ahead++)->record);
    const ItemRecord& record = *it->record;
    if (!upper_above_all && !BelowUpper(range, record.key())) return false;
    if (!visit(record.key(), record.blob(), record.item_size())) return false;
  }
  return true;
}

// `lower_below_all`: as VisitForward's `upper_above_all`, for the lower bound.
template <typename Slots, typename Iterator>
bool VisitBackward(const Slots& slots, Iterator to, const KeyRange& range, const Visit& visit,
                   int prefetch = kTreePrefetch, bool lower_below_all = false) {
  auto ahead = to;
  for (int i = 0; i < prefetch && ahead != slots.begin(); ++i) {
    PrefetchRecord((--ahead)->record);
  }
  for (auto it = to; it != slots.begin();) {
    --it;
    if (ahead != slots.begin()) PrefetchRecord((--ahead)->record);
    const ItemRecord& record = *it->record;
    if (!lower_below_all && !AboveLower(range, record.key())) return false;
    if (!visit(record.key(), record.blob(), record.item_size())) return false;
  }
  return true;
}

// Every item of `range` in `tree`, in key order or reverse.
void WalkTree(const RecordTree& tree, const KeyRange& range, bool forward, const Visit& visit);

}  // namespace ddbd
