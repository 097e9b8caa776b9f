// The items of one table (engine/table_records.h: by key, and for tables with a sort key by
// partition) and of its secondary indexes (a tree each), with item collection sizes.
//
// Memory: each item is one heap record (sizes, key bytes, item blob), a 16-byte slot in a tree
// and a pointer and hash in the hash of keys, so an item costs its bytes plus a few dozen bytes.
//
// Thread safety: all members may be called from any thread; readers share a lock, writers take
// it exclusively.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/storage/item_records.h"
#include "engine/storage/table_records.h"

namespace ddbd {

// An item's entry in one secondary index: the index's number, the entry's key bytes (index key,
// then table key, so equal index keys stay distinct and ordered), and the projected item.
struct IndexEntry {
  size_t index = 0;
  std::string key;
  StoredItem item;
};
using IndexEntries = std::vector<IndexEntry>;

class TableItems {
 public:
  TableItems() = default;
  ~TableItems();
  TableItems(const TableItems&) = delete;
  TableItems& operator=(const TableItems&) = delete;

  // Keeps the items by partition (tables with a sort key); `prefix_length` gives the length of
  // the partition part of a key. Call before the first write.
  using PrefixLength = std::function<size_t(std::string_view key)>;
  void UsePartitions(PrefixLength prefix_length);

  // Gives the table `count` secondary indexes, empty. `entries_of` computes the index entries of
  // a stored item from its blob (used for the item a write replaces or removes). Call before the
  // first write, or while backfilling is handled elsewhere.
  using EntriesOf = std::function<IndexEntries(std::string_view blob)>;
  void SetIndexes(size_t count, EntriesOf entries_of);
  // Index slots are stable for the table's life. Under the write lock: installs `entries_of`
  // for the new set of indexes and moves the generation on (writes prepared for the old set
  // recompute their entries), empties the `dropped` slots, then fills the `added` ones from every
  // item (backfill). `locked` runs once the lock is held, before the backfill: the engine
  // releases its catalog lock there, so a long backfill holds up this table alone, and no read
  // of this table sees an added index before it is full.
  void ChangeIndexes(const std::vector<size_t>& added, const std::vector<size_t>& dropped,
                     EntriesOf entries_of, const std::function<void()>& locked);
  // The generation the index entries handed to Put and Apply must have been computed for.
  uint64_t index_generation() const;
  // Whether a ChangeIndexes is filling added indexes; set before its `locked` callback runs, so
  // whoever checks under the lock that callback releases sees every backfill.
  bool backfilling() const { return backfilling_.load(std::memory_order_acquire); }
  // Returns once the backfill under way, if any, has finished.
  void WaitForBackfill() const;

  std::optional<StoredItem> Get(std::string_view key) const;
  // Item collections (tables with local secondary indexes): the bytes of each partition's items
  // and their LSI entries, kept under `limit_bytes`, by the partitions UsePartitions gives (LSIs
  // need a sort key); `local_slots` are the LSIs' slots. Call before the first write.
  void TrackItemCollections(int64_t limit_bytes, std::vector<size_t> local_slots);

  // Inserts or replaces, with the new item's index entries; returns the item it replaced.
  // ItemCollectionSizeLimitExceededException, changing nothing, if it outgrows its collection.
  Result<std::optional<StoredItem>> Put(std::string_view key, const StoredItem& item,
                                        const IndexEntries& entries = {}, uint64_t generation = 0);
  // Returns the item it removed.
  std::optional<StoredItem> Erase(std::string_view key);

  // What a conditional write decided after seeing the current item.
  struct Write {
    enum class Kind { kPut, kDelete };
    Kind kind = Kind::kPut;
    StoredItem item;          // for kPut
    IndexEntries entries;     // for kPut
    uint64_t generation = 0;  // index generation `entries` were computed for
  };
  // Under the write lock, `decide` sees the current item's blob (null if none) and returns the
  // write to make or an error, in which case nothing changes. Returns the item replaced or
  // removed. This is how a condition and its write are atomic.
  using Decide = std::function<Result<Write>(const std::string_view* current_blob)>;
  Result<std::optional<StoredItem>> Apply(std::string_view key, const Decide& decide);

  using KeyRange = ddbd::KeyRange;
  // Calls `visit` for each item in `range`, in key order or reverse, until it returns false.
  // Holds the read lock throughout, so a walk sees one consistent state.
  using Visit = ddbd::Visit;
  void Walk(const KeyRange& range, bool forward, const Visit& visit) const;
  // The same over secondary index `index`.
  void WalkIndex(size_t index, const KeyRange& range, bool forward, const Visit& visit) const;
  // The blob of the item with `key`, for use only inside a Walk/WalkIndex callback (the walk
  // already holds the lock); null if there is none.
  bool FindDuringWalk(std::string_view key, std::string_view* blob) const;

  int64_t item_count() const;
  int64_t size_bytes() const;
  int64_t index_item_count(size_t index) const;
  int64_t index_size_bytes(size_t index) const;

 private:
  struct Index {
    RecordTree entries;
    int64_t size_bytes = 0;
  };
  // The index entries a stored record has (none when the table has no indexes), computed once
  // per write and shared by the collection charge and the index update.
  IndexEntries EntriesOfLocked(const ItemRecord* record) const;
  // Under the write lock: removes the old item's index entries and adds the new ones.
  void ReplaceIndexEntriesLocked(const IndexEntries& old_entries, const ItemRecord* new_record,
                                 const IndexEntries& entries, uint64_t generation,
                                 std::vector<ItemRecord*>& garbage);

  int64_t CollectionBytesLocked(uint32_t item_size, const IndexEntries& entries) const;
  // Under the write lock: moves the collection of `key` from the old item's bytes to the new
  // one's (null: none), or fails when that would pass the limit.
  Status ChargeCollectionLocked(std::string_view key, const ItemRecord* old_record,
                                const IndexEntries& old_entries, const StoredItem* new_item,
                                const IndexEntries& new_entries);

  mutable std::shared_mutex mutex_;
  TableRecords items_;
  int64_t size_bytes_ = 0;
  std::vector<Index> indexes_;
  EntriesOf entries_of_;
  std::atomic<uint64_t> index_generation_ = 0;
  std::atomic<bool> backfilling_ = false;
  int64_t collection_limit_bytes_ = 0;
  bool track_collections_ = false;  // needs partitions (UsePartitions): LSIs need a sort key
  std::vector<size_t> local_slots_;
  absl::flat_hash_map<std::string, int64_t> collections_;  // partition prefix -> bytes
};

}  // namespace ddbd
