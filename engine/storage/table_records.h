// The items of one table (or the entries of one index) by key: the key order for walks, and for
// a table without partitions a hash of the keys for point reads.
//
// A table without a sort key keeps one tree of all its items. A table with one keeps its
// partitions (the items sharing a partition key) instead: each partition a tree of its own items,
// found by a hash of the partition's bytes, and all partitions in a tree of their own for walks
// across them (Scan). A Query then costs a hash probe and the partition's small tree, where one
// tree of a million items costs a descent of a dozen cache misses before the first item; that
// descent made a 10-item Query on 1M items cost 25% more than on 1k items.
//
// Owns its records. Not thread-safe: TableItems locks around it.
#pragma once

#include <absl/container/btree_set.h>
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string_view>

#include "engine/storage/item_records.h"
#include "engine/storage/packed_ref.h"

namespace ddbd {

class TableRecords {
 public:
  // The length of the partition part (hash and partition key) of a table key.
  using PrefixLength = std::function<size_t(std::string_view key)>;

  TableRecords() = default;
  ~TableRecords();
  TableRecords(const TableRecords&) = delete;
  TableRecords& operator=(const TableRecords&) = delete;

  // Keeps the items by partition (tables with a sort key, secondary indexes). Call before the
  // first insert. Without `hashed_keys`, no hash of keys is kept: Find goes through the item's
  // partition (a probe, then its few slots or its tree), which saves the hash's ~17 bytes an
  // item where point reads are rare (an index's entries are found only to replace them).
  void UsePartitions(PrefixLength prefix_length, bool hashed_keys = true);

  // While on, inserts are expected in key order (a replay of a checkpoint, an index built from
  // its table's items): each tree is given its end as a hint, which makes such an insert an
  // append without a descent from the root; one out of order pays a comparison more. Off (as
  // for a write), inserts descend.
  void ExpectKeyOrder(bool on) { in_key_order_ = on; }
  // While on (a replay), a table keeps its hashes alone (of keys, or of partitions), and its
  // tree (of items, or of partitions), which a log's records reach in no order, a descent of
  // cache misses each, is built once when it goes off, from them sorted by key. Walks wait
  // until then; ForEach goes in no order meanwhile. Not for an index (no hash of its keys).
  void DeferOrder(bool on);
  bool order_deferred() const { return order_deferred_; }
  // DeferOrder(false) in two steps, so that point reads go on while the trees are built: the
  // trees built from the hashes, which only reads them (under a table's read lock), then put in
  // place, which ends the deferral (under its write lock). Trees built before a change since
  // are built again there.
  struct Order;
  Order BuildOrder() const;
  void InstallOrder(Order order);
  // Room in the hash of keys for `items` records, so a load of that many grows it once, not by
  // a rehash of every record at each doubling.
  void Reserve(size_t items) {
    if (hashed_keys_) hashed_.reserve(items);
  }

  // Starts loading the hash slots `Find(key)` will read.
  void Prefetch(std::string_view key) const;
  ItemRecord* Find(std::string_view key) const;
  // `record`'s key must not be stored yet.
  void Insert(ItemRecord* record);
  // `record` takes the place of `old`, which has the same key; the caller destroys `old`.
  void Replace(ItemRecord* old, ItemRecord* record);
  // Takes out a stored record; the caller destroys it.
  void Remove(ItemRecord* record);

  // Whether UsePartitions was called, and the partition part (hash and partition key) of `key`.
  bool partitioned() const { return static_cast<bool>(prefix_length_); }
  std::string_view PartitionOf(std::string_view key) const {
    return key.substr(0, prefix_length_(key));
  }

  void Walk(const KeyRange& range, bool forward, const Visit& visit) const;
  size_t size() const { return size_; }
  // Every record, in key order: an index built from them (TableItems::BuildDeferredIndexes, a
  // backfill) receives the entries of each of its partitions in table key order, appends where
  // the index has no sort key. While the order is deferred, in no order (a TTL index attached
  // during a replay, the records destroyed with a table deleted then).
  template <typename F>
  void ForEach(const F& f) const {
    if (!partitioned()) {
      if (order_deferred_) {
        for (const HashedRef<ItemRecord>& ref : hashed_) f(ref.target());
        return;
      }
      for (const RecordSlot& slot : tree_) f(static_cast<const ItemRecord*>(slot.record));
      return;
    }
    auto each = [&f](PartitionHandle handle) {
      if (handle.single()) {
        f(static_cast<const ItemRecord*>(handle.record()));
      } else if (const RecordTree* tree = handle.partition()->tree()) {
        for (const RecordSlot& item : *tree) {
          f(static_cast<const ItemRecord*>(item.record));
        }
      } else {
        for (const RecordSlot& item : handle.partition()->small_items()) {
          f(static_cast<const ItemRecord*>(item.record));
        }
      }
    };
    if (order_deferred_) {
      for (const PartitionRef& ref : partition_index_) each(ref.partition());
      return;
    }
    for (const PartitionSlot& slot : partitions_) each(slot.partition);
  }

 private:
  // One allocation: this header, the partition's bytes, then room for `capacity` slots kept in
  // key order: a small partition's items sit beside its bytes, so a Query reads them with the
  // partition itself. Past kSmallPartition items they move to a tree of their own, whose pointer
  // then takes the slots' place (capacity 0): an 8-byte header, where a pointer of its own made
  // it 16 and a block of 10 items of an 18-byte partition 200 bytes, a size class (224) more.
  struct Partition {
    uint32_t key_size;
    uint16_t count;     // slots in use, while small (at most kSmallPartition)
    uint16_t capacity;  // slots allocated; 0 for a large partition
    std::string_view key() const;
    RecordSlot* slots();  // sorted by key bytes from the sort key on
    SlotSpan small_items() const;
    // A large partition's items, or null.
    RecordTree* tree() const {
      if (capacity != 0) return nullptr;
      RecordTree* tree;
      std::memcpy(&tree, const_cast<Partition*>(this)->slots(), sizeof(tree));
      return tree;
    }
    ByRecordKey order() const { return ByRecordKey{key_size}; }
    // `capacity` 0: a large partition, whose tree holds `slots`.
    static Partition* Create(std::string_view key, uint32_t capacity, SlotSpan slots = {});
    static void Destroy(Partition* partition);
  };
  static constexpr uint32_t kSmallPartition = 16;

  // A partition as the partition index and tree hold it: a Partition, or for a partition of one
  // item (every partition, in many tables with a sort key) that item's record itself, tagged in
  // the low bit, as a Partition for each cost 96 MB more per million such items.
  class PartitionHandle {
   public:
    static PartitionHandle Of(Partition* partition) {
      return PartitionHandle(reinterpret_cast<uintptr_t>(partition));
    }
    static PartitionHandle Of(ItemRecord* record) {
      return PartitionHandle(reinterpret_cast<uintptr_t>(record) | 1);
    }
    bool single() const { return (bits_ & 1) != 0; }
    Partition* partition() const { return reinterpret_cast<Partition*>(bits_); }
    uintptr_t bits() const { return bits_; }
    static PartitionHandle OfBits(uintptr_t bits) { return PartitionHandle(bits); }
    ItemRecord* record() const { return reinterpret_cast<ItemRecord*>(bits_ & ~uintptr_t{1}); }
    bool operator==(const PartitionHandle&) const = default;

   private:
    explicit PartitionHandle(uintptr_t bits) : bits_(bits) {}
    uintptr_t bits_;
  };
  // The partition's bytes: a single item's key up to its partition's length.
  std::string_view KeyOf(PartitionHandle handle) const;

  // Partitions in key order: the first 8 bytes of their keys (the partition hash) as an integer,
  // which settles almost every comparison without reading the partition.
  struct PartitionSlot {
    uint64_t prefix;
    mutable PartitionHandle partition;  // mutable: partitions grow and shrink by moving
  };
  struct ByPartitionKey {
    using is_transparent = void;
    ByPartitionKey() : records(nullptr) {}
    explicit ByPartitionKey(const TableRecords* table) : records(table) {}
    const TableRecords* records;
    bool operator()(const PartitionSlot& a, const PartitionSlot& b) const {
      return a.prefix != b.prefix ? a.prefix < b.prefix
                                  : records->KeyOf(a.partition) < records->KeyOf(b.partition);
    }
    bool operator()(const PartitionSlot& a, std::string_view b) const {
      const uint64_t b_prefix = KeyPrefix(b);
      return a.prefix != b_prefix ? a.prefix < b_prefix : records->KeyOf(a.partition) < b;
    }
    bool operator()(std::string_view a, const PartitionSlot& b) const {
      const uint64_t a_prefix = KeyPrefix(a);
      return a_prefix != b.prefix ? a_prefix < b.prefix : a < records->KeyOf(b.partition);
    }
  };
  using PartitionTree = absl::btree_set<PartitionSlot, ByPartitionKey>;

 public:
  struct Order {
    explicit Order(const TableRecords* table) : partitions(ByPartitionKey{table}) {}
    RecordTree tree;
    PartitionTree partitions;
    uint64_t changes = 0;  // the table's changes_ when it was built
  };

 private:
  // Key bytes' hash in the hashes below: Abseil's own. absl::HashOf(std::string_view) goes to
  // std::hash (this Abseil's string_view is a type of its own), a byte-wise MurmurHash that
  // cost ~85 instructions a key, 8% of a start with a million items.
  // Kept to PackedRef's 48 bits, as the sets' entries keep it.
  static size_t HashOfKey(std::string_view key) {
    return PackedRef::Hash(absl::HashOf(absl::string_view(key.data(), key.size())));
  }

  // The partition index: partitions by a hash of their bytes.
  struct PartitionRef : PackedRef {
    PartitionRef(PartitionHandle handle, size_t hash) : PackedRef(handle.bits(), hash) {}
    PartitionHandle partition() const { return PartitionHandle::OfBits(bits()); }
    void set_partition(PartitionHandle handle) const { set_bits(handle.bits()); }
  };
  struct PartitionHash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return HashOfKey(key); }
    size_t operator()(const PartitionRef& ref) const { return ref.hash(); }
  };
  struct PartitionEqual {
    using is_transparent = void;
    // A single item belongs to partition `key` when its key starts with it: partition bytes are
    // self-delimiting, so a partition's bytes are never a prefix of another's.
    bool operator()(const PartitionRef& ref, std::string_view key) const {
      const PartitionHandle handle = ref.partition();
      if (handle.single()) return handle.record()->key().starts_with(key);
      // A matching partition is about to be searched: its slots start loading with its bytes.
      const char* bytes = reinterpret_cast<const char*>(handle.partition());
      for (int offset = 64; offset < 256; offset += 64) __builtin_prefetch(bytes + offset);
      return handle.partition()->key() == key;
    }
    bool operator()(std::string_view key, const PartitionRef& ref) const {
      return (*this)(ref, key);
    }
    // Entries are only inserted for partitions not in the index, so two entries are equal only
    // when they are the same entry.
    bool operator()(const PartitionRef& a, const PartitionRef& b) const {
      return a.bits() == b.bits();
    }
  };
  using PartitionIndex = absl::flat_hash_set<PartitionRef, PartitionHash, PartitionEqual>;

  // A hash set of records by their key bytes. The hash is kept beside the pointer:
  // growing the set rehashes every entry, and reading each record for it held the table's write
  // lock for 87 ms when a million-item table doubled.
  template <typename T>
  struct HashedRef : PackedRef {
    HashedRef(T* target, size_t hash) : PackedRef(reinterpret_cast<uintptr_t>(target), hash) {}
    T* target() const { return reinterpret_cast<T*>(bits()); }
    // Replaced in place, as the key stays.
    void set_target(T* target) const { set_bits(reinterpret_cast<uintptr_t>(target)); }
  };
  template <typename T>
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(std::string_view key) const { return HashOfKey(key); }
    size_t operator()(const HashedRef<T>& ref) const { return ref.hash(); }
  };
  template <typename T>
  struct KeyEqual {
    using is_transparent = void;
    static std::string_view KeyOf(std::string_view key) { return key; }
    static std::string_view KeyOf(const HashedRef<T>& ref) { return ref.target()->key(); }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return KeyOf(a) == KeyOf(b);
    }
  };
  template <typename T>
  using HashedByKey = absl::flat_hash_set<HashedRef<T>, KeyHash<T>, KeyEqual<T>>;
  template <typename T>
  static HashedRef<T> RefTo(T* target) {
    return {target, HashOfKey(target->key())};
  }

  // The record with key bytes `key` in its partition (tables without a hash of keys).
  ItemRecord* FindInPartition(std::string_view key) const;
  // The partition with bytes `key`, if any.
  std::optional<PartitionHandle> FindPartition(std::string_view key) const;
  void AddPartition(std::string_view key, PartitionHandle partition);
  // Points the partition index and tree at `moved`, which replaces `partition` (same bytes).
  void Rebind(std::string_view key, PartitionHandle moved);
  void RemovePartition(std::string_view key);
  // Adds `record` to the partition `key`, which holds `partition` (several items).
  void InsertInto(std::string_view key, Partition* partition, ItemRecord* record);
  // Walks one partition's items in `range`; false once the walk is over (see VisitForward).
  bool WalkPartition(PartitionHandle partition, const KeyRange& range, bool forward,
                     const Visit& visit) const;
  // The same over its slots (a RecordTree or a SlotSpan) ordered by `order`.
  template <typename Slots>
  static bool WalkSlots(std::string_view key, const ByRecordKey& order, const Slots& items,
                        const KeyRange& range, bool forward, const Visit& visit);
  void WalkPartitions(const KeyRange& range, bool forward, const Visit& visit) const;

  // Inserts `value` into `tree` (RecordTree, PartitionTree) as ExpectKeyOrder says.
  template <typename Tree, typename Value>
  void InsertSlot(Tree& tree, const Value& value) {
    if (in_key_order_) {
      tree.insert(tree.end(), value);
    } else {
      tree.insert(value);
    }
  }

  // Point reads (GetItem, BatchGetItem, an LSI's fetch of unprojected attributes): a probe and
  // the record, where a walk down a million-item tree costs a dozen cache misses.
  HashedByKey<ItemRecord> hashed_;  // empty without hashed_keys
  bool hashed_keys_ = true;
  bool in_key_order_ = false;
  bool order_deferred_ = false;
  size_t size_ = 0;
  uint64_t changes_ = 0;  // inserts, replacements and removals: an Order built before one is stale
  RecordTree tree_;       // a table without partitions
  PrefixLength prefix_length_;
  PartitionTree partitions_{ByPartitionKey{this}};
  PartitionIndex partition_index_;
};

}  // namespace ddbd
