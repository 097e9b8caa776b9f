// The items of one table, in a B-tree ordered by their key bytes.
//
// Memory: each item is one heap record (sizes, key bytes, item blob), a 16-byte slot in the tree
// and a pointer and hash in the hash of keys, so an item costs its bytes plus a few dozen bytes.
//
// Thread safety: all members may be called from any thread; readers share a lock, writers take
// it exclusively. (Striping by key range comes with the performance work.)
#pragma once

#include <absl/container/btree_set.h>
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// An item as the engine hands it in and out: its blob (engine/item_codec.h) and DynamoDB size.
struct StoredItem {
  std::string blob;
  uint32_t size_bytes = 0;
};

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

  // Gives the table `count` secondary indexes, empty. `entries_of` computes the index entries of
  // a stored item from its blob (used for the item a write replaces or removes). Call before the
  // first write, or while backfilling is handled elsewhere.
  using EntriesOf = std::function<IndexEntries(std::string_view blob)>;
  void SetIndexes(size_t count, EntriesOf entries_of);
  // Index slots are stable for the table's life. AddIndex fills slot `slot` from every item
  // (backfill); DropIndex empties it. Both install `entries_of` for the new set of indexes and
  // move the generation on, so writes prepared for the old set recompute their entries.
  void AddIndex(size_t slot, EntriesOf entries_of);
  void DropIndex(size_t slot, EntriesOf entries_of);
  // The generation the index entries handed to Put and Apply must have been computed for.
  uint64_t index_generation() const;

  std::optional<StoredItem> Get(std::string_view key) const;
  // Item collections (tables with local secondary indexes): the bytes of each partition's items
  // and their LSI entries, kept under `limit_bytes`. `prefix_length` gives the length of the
  // partition part of a key; `local_slots` are the LSIs' slots. Call before the first write.
  using PrefixLength = std::function<size_t(std::string_view key)>;
  void TrackItemCollections(int64_t limit_bytes, PrefixLength prefix_length,
                            std::vector<size_t> local_slots);

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

  // A range of key bytes. An empty `upper` with `has_upper` false means "to the end".
  struct KeyRange {
    std::string lower;
    bool lower_inclusive = true;
    std::string upper;
    bool upper_inclusive = false;
    bool has_upper = false;
  };
  // Calls `visit` for each item in `range`, in key order or reverse, until it returns false.
  // Holds the read lock throughout, so a walk sees one consistent state.
  using Visit = std::function<bool(std::string_view key, std::string_view blob, uint32_t size)>;
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
  // One allocation: this header, then key bytes, then blob bytes.
  struct Record {
    uint32_t key_size;
    uint32_t blob_size;
    uint32_t item_size;
    std::string_view key() const;
    std::string_view blob() const;
    static Record* Create(std::string_view key, const StoredItem& item);
    static void Destroy(Record* record);
  };
  // A tree slot: the record and its key's first 8 bytes as a big-endian integer, which orders
  // like the bytes themselves. Keys begin with an 8-byte partition hash, so most comparisons
  // are settled by the slot alone, without touching the record (a cache miss each).
  struct Slot {
    uint64_t prefix;
    // Mutable: a record replaced by one with the same key bytes takes its slot in place, as the
    // order does not change.
    mutable Record* record;
    explicit Slot(Record* r) : prefix(KeyPrefix(r->key())), record(r) {}
    operator Record*() const { return record; }  // NOLINT: reads as the record
    Record* operator->() const { return record; }
    Record& operator*() const { return *record; }
  };
  static uint64_t KeyPrefix(std::string_view key);
  struct ByKey {
    using is_transparent = void;
    bool operator()(const Slot& a, const Slot& b) const {
      return a.prefix != b.prefix ? a.prefix < b.prefix : a->key() < b->key();
    }
    bool operator()(const Slot& a, std::string_view b) const {
      const uint64_t b_prefix = KeyPrefix(b);
      return a.prefix != b_prefix ? a.prefix < b_prefix : a->key() < b;
    }
    bool operator()(std::string_view a, const Slot& b) const {
      const uint64_t a_prefix = KeyPrefix(a);
      return a_prefix != b.prefix ? a_prefix < b.prefix : a < b->key();
    }
  };
  static StoredItem Copy(const Record& record);

  using Tree = absl::btree_set<Slot, ByKey>;
  // The items again, hashed by key bytes: a point read (GetItem, BatchGetItem, an LSI's fetch of
  // unprojected attributes) costs a probe and the record, where a walk down a million-item tree
  // costs a dozen cache misses. Entries are replaced in place like the tree's slots.
  // The key's hash is kept beside the pointer: growing the set rehashes every entry, and reading
  // each record for it held the write lock for 87 ms when a million-item table doubled.
  struct RecordRef {
    mutable Record* record;
    size_t hash;
  };
  static RecordRef RefTo(Record* record) { return {record, absl::HashOf(record->key())}; }
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return absl::HashOf(key); }
    size_t operator()(const RecordRef& ref) const { return ref.hash; }
  };
  struct KeyEqual {
    using is_transparent = void;
    static std::string_view KeyOf(std::string_view key) { return key; }
    static std::string_view KeyOf(const RecordRef& ref) { return ref.record->key(); }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return KeyOf(a) == KeyOf(b);
    }
  };
  using HashedItems = absl::flat_hash_set<RecordRef, KeyHash, KeyEqual>;
  struct Index {
    Tree entries;
    int64_t size_bytes = 0;
  };
  // Asks the CPU to start loading a record a walk will visit soon.
  static void Prefetch(const Record* record);
  static void WalkTree(const Tree& tree, const KeyRange& range, bool forward, const Visit& visit);
  // The index entries a stored record has (none when the table has no indexes), computed once
  // per write and shared by the collection charge and the index update.
  IndexEntries EntriesOfLocked(const Record* record) const;
  // Under the write lock: puts `record` in the place of the item at `slot`, which has its key.
  void ReplaceLocked(Tree::iterator slot, Record* record);
  // Under the write lock: removes the old item's index entries and adds the new ones.
  void ReplaceIndexEntriesLocked(const IndexEntries& old_entries, const Record* new_record,
                                 const IndexEntries& entries, uint64_t generation,
                                 std::vector<Record*>& garbage);

  int64_t CollectionBytesLocked(uint32_t item_size, const IndexEntries& entries) const;
  // Under the write lock: moves the collection of `key` from the old item's bytes to the new
  // one's (null: none), or fails when that would pass the limit.
  Status ChargeCollectionLocked(std::string_view key, const Record* old_record,
                                const IndexEntries& old_entries, const StoredItem* new_item,
                                const IndexEntries& new_entries);

  mutable std::shared_mutex mutex_;
  Tree items_;
  HashedItems hashed_items_;
  int64_t size_bytes_ = 0;
  std::vector<Index> indexes_;
  EntriesOf entries_of_;
  std::atomic<uint64_t> index_generation_ = 0;
  int64_t collection_limit_bytes_ = 0;
  PrefixLength collection_prefix_length_;  // empty: collections are not tracked
  std::vector<size_t> local_slots_;
  absl::flat_hash_map<std::string, int64_t> collections_;  // partition prefix -> bytes
};

}  // namespace ddbd
