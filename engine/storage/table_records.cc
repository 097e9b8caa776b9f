#include "engine/storage/table_records.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <type_traits>
#include <vector>

#include "engine/storage/prefix_sort.h"

namespace ddbd {

namespace {
// Where a partition's slots start: after its header and bytes, aligned for slots.
size_t SlotsOffset(size_t key_size) {
  constexpr size_t kAlign = alignof(RecordSlot);
  constexpr size_t kHeader = sizeof(uint32_t) + 2 * sizeof(uint16_t);
  return (kHeader + key_size + kAlign - 1) / kAlign * kAlign;
}
}  // namespace

std::string_view TableRecords::Partition::key() const {
  return {reinterpret_cast<const char*>(this + 1), key_size};
}

RecordSlot* TableRecords::Partition::slots() {
  static_assert(sizeof(Partition) == sizeof(uint32_t) + 2 * sizeof(uint16_t));
  static_assert(sizeof(RecordTree*) <= sizeof(RecordSlot) &&
                alignof(RecordSlot) % alignof(RecordTree*) == 0);
  return reinterpret_cast<RecordSlot*>(reinterpret_cast<char*>(this) + SlotsOffset(key_size));
}

SlotSpan TableRecords::Partition::small_items() const {
  return {const_cast<Partition*>(this)->slots(), count};
}

TableRecords::Partition* TableRecords::Partition::Create(std::string_view key, uint32_t capacity,
                                                         SlotSpan slots) {
  static_assert(std::is_trivially_copyable_v<RecordSlot>, "slots move with memmove");
  // malloc, not operator new, to ask what the allocation holds: the allocator rounds it up to
  // a size class, and the slots take that room rather than leave it unused.
  const size_t offset = SlotsOffset(key.size());
  const size_t room = capacity > 0 ? capacity * sizeof(RecordSlot) : sizeof(RecordTree*);
  void* memory = std::malloc(offset + room);
  if (memory == nullptr) throw std::bad_alloc();
  if (capacity > 0) {
    const size_t fits = (malloc_usable_size(memory) - offset) / sizeof(RecordSlot);
    capacity = static_cast<uint32_t>(std::min<size_t>(fits, kSmallPartition));
  }
  auto* partition =
      new (memory) Partition{static_cast<uint32_t>(key.size()), 0, static_cast<uint16_t>(capacity)};
  std::memcpy(reinterpret_cast<char*>(partition + 1), key.data(), key.size());
  if (capacity > 0) {
    std::memcpy(partition->slots(), slots.data(), slots.size() * sizeof(RecordSlot));
    partition->count = static_cast<uint16_t>(slots.size());
  } else {
    RecordTree* tree;
    try {
      tree = new RecordTree(slots.begin(), slots.end(), partition->order());
    } catch (...) {
      std::free(memory);
      throw;
    }
    std::memcpy(static_cast<void*>(partition->slots()), &tree, sizeof(tree));
  }
  return partition;
}

void TableRecords::Partition::Destroy(Partition* partition) {
  delete partition->tree();
  partition->~Partition();
  std::free(partition);
}

TableRecords::~TableRecords() {
  ForEach([](const ItemRecord* record) { ItemRecord::Destroy(const_cast<ItemRecord*>(record)); });
  for (const PartitionRef& ref : partition_index_) {  // every partition, deferred or not
    if (!ref.partition().single()) Partition::Destroy(ref.partition().partition());
  }
}

void TableRecords::UsePartitions(PrefixLength prefix_length, bool hashed_keys) {
  order_deferred_ = false;  // called before any insert, so before any deferral
  prefix_length_ = std::move(prefix_length);
  hashed_keys_ = hashed_keys;
}

void TableRecords::Prefetch(std::string_view key) const {
  if (hashed_keys_) {
    hashed_.prefetch(key);
  } else {
    partition_index_.prefetch(PartitionOf(key));
  }
}

ItemRecord* TableRecords::Find(std::string_view key) const {
  if (!hashed_keys_) return FindInPartition(key);
  auto it = hashed_.find(key);
  return it == hashed_.end() ? nullptr : it->target();
}

ItemRecord* TableRecords::FindInPartition(std::string_view key) const {
  const std::optional<PartitionHandle> handle = FindPartition(PartitionOf(key));
  if (!handle) return nullptr;
  if (handle->single()) return handle->record()->key() == key ? handle->record() : nullptr;
  const Partition& partition = *handle->partition();
  if (const RecordTree* tree = partition.tree()) {
    auto it = tree->find(key);
    return it == tree->end() ? nullptr : it->record;
  }
  // The key's 8-byte integer once, then the slots that share it (nearly always one) by bytes.
  const SlotSpan items = partition.small_items();
  const uint64_t prefix = partition.order().PrefixOf(key);
  auto it =
      std::lower_bound(items.begin(), items.end(), prefix,
                       [](const RecordSlot& slot, uint64_t value) { return slot.prefix < value; });
  for (; it != items.end() && it->prefix == prefix; ++it) {
    if (it->record->key() == key) return it->record;
  }
  return nullptr;
}

std::string_view TableRecords::KeyOf(PartitionHandle handle) const {
  if (!handle.single()) return handle.partition()->key();
  return PartitionOf(handle.record()->key());
}

std::optional<TableRecords::PartitionHandle> TableRecords::FindPartition(
    std::string_view key) const {
  auto it = partition_index_.find(key);
  if (it == partition_index_.end()) return std::nullopt;
  return it->partition();
}

void TableRecords::AddPartition(std::string_view key, PartitionHandle partition) {
  partition_index_.insert(PartitionRef{partition, HashOfKey(key)});
  if (!order_deferred_) InsertSlot(partitions_, PartitionSlot{KeyPrefix(key), partition});
}

void TableRecords::Rebind(std::string_view key, PartitionHandle moved) {
  partition_index_.find(key)->set_partition(moved);
  if (!order_deferred_) partitions_.find(key)->partition = moved;
}

void TableRecords::RemovePartition(std::string_view key) {
  if (!order_deferred_) partitions_.erase(key);
  partition_index_.erase(key);
}

void TableRecords::DeferOrder(bool on) {
  if (!hashed_keys_ || on == order_deferred_) return;
  if (!on) return InstallOrder(BuildOrder());
  order_deferred_ = true;
  // The hashes hold everything: the trees are built from them when the deferral ends.
  tree_.clear();
  partitions_.clear();
}

TableRecords::Order TableRecords::BuildOrder() const {
  Order order(this);
  order.changes = changes_;
  if (!order_deferred_) return order;
  // In the hash's order, each record read a few ahead (its key, or its partition's bytes), as
  // each is a cache miss.
  constexpr size_t kAhead = 8;
  auto build = [](const auto& hash, auto address_of, auto slot_of, auto sort_order, auto& tree) {
    std::vector<typename std::decay_t<decltype(tree)>::value_type> slots;
    slots.reserve(hash.size());
    auto ahead = hash.begin();
    for (size_t i = 0; i < kAhead && ahead != hash.end(); ++i, ++ahead) {
      __builtin_prefetch(address_of(*ahead));
    }
    for (const auto& ref : hash) {
      if (ahead != hash.end()) __builtin_prefetch(address_of(*ahead++));
      slots.push_back(slot_of(ref));
    }
    SortByPrefix(slots, sort_order);
    tree.insert(slots.begin(), slots.end());  // in order: each an append
  };
  if (!partitioned()) {
    build(
        hashed_, [](const HashedRef<ItemRecord>& ref) { return ref.target(); },
        [](const HashedRef<ItemRecord>& ref) { return RecordSlot(ref.target(), 0); },
        ByRecordKey{0}, order.tree);
    return order;
  }
  build(
      partition_index_,
      [](const PartitionRef& ref) -> const void* {
        const PartitionHandle handle = ref.partition();
        return handle.single() ? static_cast<const void*>(handle.record()) : handle.partition();
      },
      [this](const PartitionRef& ref) {
        return PartitionSlot{KeyPrefix(KeyOf(ref.partition())), ref.partition()};
      },
      ByPartitionKey{this}, order.partitions);
  return order;
}

void TableRecords::InstallOrder(Order order) {
  if (!order_deferred_) return;
  if (order.changes != changes_) order = BuildOrder();
  tree_ = std::move(order.tree);
  partitions_ = std::move(order.partitions);
  order_deferred_ = false;
}

void TableRecords::Insert(ItemRecord* record) {
  ++size_;
  ++changes_;
  if (hashed_keys_) hashed_.insert(RefTo(record));
  if (!partitioned()) {
    if (!order_deferred_) InsertSlot(tree_, RecordSlot(record, 0));
    return;
  }
  const std::string_view key = PartitionOf(record->key());
  const std::optional<PartitionHandle> found = FindPartition(key);
  if (!found) {
    AddPartition(key, PartitionHandle::Of(record));
    return;
  }
  if (!found->single()) {
    InsertInto(key, found->partition(), record);
    return;
  }
  // A second item: the partition gets a block of its own.
  const RecordSlot first(found->record(), key.size());
  Partition* partition = Partition::Create(key, 2, SlotSpan(&first, 1));
  Rebind(key, PartitionHandle::Of(partition));
  InsertInto(partition->key(), partition, record);
}

void TableRecords::InsertInto(std::string_view key, Partition* partition, ItemRecord* record) {
  const RecordSlot slot(record, partition->key_size);
  if (RecordTree* tree = partition->tree()) {
    InsertSlot(*tree, slot);
    return;
  }
  if (partition->count == partition->capacity) {
    // Full: move to more room (2, 4, 8, then 2 slots more at a time, each block as many as its
    // size class holds: 10 items of a partition of 18 bytes take a block of 192 bytes, where
    // steps of 4 took one of 256), or past kSmallPartition items to a tree (the partition then
    // keeps no slots of its own).
    const bool grow = partition->capacity < kSmallPartition;
    const uint32_t room =
        partition->capacity < 8 ? partition->capacity * 2u : partition->capacity + 2u;
    Partition* moved = Partition::Create(key, grow ? std::min(room, kSmallPartition) : 0,
                                         partition->small_items());
    Rebind(moved->key(), PartitionHandle::Of(moved));
    Partition::Destroy(partition);
    partition = moved;
    if (RecordTree* tree = partition->tree()) {
      tree->insert(slot);
      return;
    }
  }
  const SlotSpan items = partition->small_items();
  const size_t at = static_cast<size_t>(
      std::lower_bound(items.begin(), items.end(), record->key(), partition->order()) -
      items.begin());
  RecordSlot* slots = partition->slots();
  std::memmove(slots + at + 1, slots + at, (partition->count - at) * sizeof(RecordSlot));
  std::memcpy(slots + at, &slot, sizeof(RecordSlot));
  ++partition->count;
}

void TableRecords::Replace(ItemRecord* old, ItemRecord* record) {
  // Same key bytes: the same place in the order and the same hash bucket, so no rebalancing.
  const std::string_view key = old->key();
  ++changes_;
  if (hashed_keys_) hashed_.find(key)->set_target(record);
  if (!partitioned()) {
    if (!order_deferred_) tree_.find(key)->record = record;
    return;
  }
  const std::string_view partition_key = PartitionOf(key);
  const PartitionHandle handle = *FindPartition(partition_key);
  if (handle.single()) {
    Rebind(partition_key, PartitionHandle::Of(record));
    return;
  }
  Partition* partition = handle.partition();
  if (RecordTree* tree = partition->tree()) {
    tree->find(key)->record = record;
    return;
  }
  const SlotSpan items = partition->small_items();
  std::lower_bound(items.begin(), items.end(), key, partition->order())->record = record;
}

void TableRecords::Remove(ItemRecord* record) {
  const std::string_view key = record->key();
  --size_;
  ++changes_;
  if (hashed_keys_) hashed_.erase(key);
  if (!partitioned()) {
    if (!order_deferred_) tree_.erase(key);
    return;
  }
  const std::string_view partition_key = PartitionOf(key);
  const PartitionHandle handle = *FindPartition(partition_key);
  if (handle.single()) {
    RemovePartition(partition_key);
    return;
  }
  Partition* partition = handle.partition();
  if (RecordTree* tree = partition->tree()) {
    tree->erase(key);
    if (!tree->empty()) return;
    RemovePartition(partition_key);
    Partition::Destroy(partition);
    return;
  }
  const SlotSpan items = partition->small_items();
  const size_t at = static_cast<size_t>(
      std::lower_bound(items.begin(), items.end(), key, partition->order()) - items.begin());
  RecordSlot* slots = partition->slots();
  std::memmove(slots + at, slots + at + 1, (partition->count - at - 1) * sizeof(RecordSlot));
  if (--partition->count > 1) return;
  // One item left: the partition is that item again.
  Rebind(partition_key, PartitionHandle::Of(slots[0].record));
  Partition::Destroy(partition);
}

void TableRecords::Walk(const KeyRange& range, bool forward, const Visit& visit) const {
  if (!partitioned() && hashed_keys_ && !range.partition.empty()) {
    // One partition of a table without a sort key (a Query) is one item at most, whose key is
    // the partition's bytes: found by the hash of keys, in a probe rather than a descent of the
    // tree, and while a replayed table's tree is still to be built (TableItems::Walk: no wait).
    if (ItemRecord* record = Find(range.partition)) {
      const RecordSlot slot(record, range.partition.size());
      WalkSlots(range.partition, ByRecordKey{range.partition.size()}, SlotSpan(&slot, 1), range,
                forward, visit);
    }
    return;
  }
  // Only a replay defers the order, on its one thread, and nothing walks a table then; a walk
  // that did would end the deferral rather than miss items. One partition's walk needs only the
  // hash of partitions, current throughout.
  if (order_deferred_ && range.partition.empty()) [[unlikely]]
    const_cast<TableRecords*>(this)->DeferOrder(false);
  if (!partitioned()) {
    WalkTree(tree_, range, forward, visit);
  } else if (!range.partition.empty()) {
    partition_index_.prefetch(range.partition);  // control bytes and slots in one wait
    if (const std::optional<PartitionHandle> partition = FindPartition(range.partition)) {
      WalkPartition(*partition, range, forward, visit);
    }
  } else {
    WalkPartitions(range, forward, visit);
  }
}

bool TableRecords::WalkPartition(PartitionHandle handle, const KeyRange& range, bool forward,
                                 const Visit& visit) const {
  if (handle.single()) {
    const std::string_view key = KeyOf(handle);
    const RecordSlot slot(handle.record(), key.size());
    return WalkSlots(key, ByRecordKey{key.size()}, SlotSpan(&slot, 1), range, forward, visit);
  }
  const Partition& partition = *handle.partition();
  if (const RecordTree* tree = partition.tree()) {
    return WalkSlots(partition.key(), partition.order(), *tree, range, forward, visit);
  }
  return WalkSlots(partition.key(), partition.order(), partition.small_items(), range, forward,
                   visit);
}

// Partition keys are self-delimiting, so no partition's key is a prefix of another's. A bound
// that starts with a partition's key falls among its items; any other bound is below or above
// all of them, as it is below or above the partition's key.
template <typename Slots>
bool TableRecords::WalkSlots(std::string_view key, const ByRecordKey& order, const Slots& items,
                             const KeyRange& range, bool forward, const Visit& visit) {
  auto begin = [&] {
    if constexpr (std::is_same_v<Slots, RecordTree>) {
      return RangeBegin(items, range);
    } else {
      return RangeBegin(items, order, range);
    }
  };
  auto end = [&] {
    if constexpr (std::is_same_v<Slots, RecordTree>) {
      return RangeEnd(items, range);
    } else {
      return RangeEnd(items, order, range);
    }
  };
  // A bound outside the partition's keys needs no comparison with each item (a Query of a whole
  // partition: ~55 instructions an item).
  const std::string_view lower = range.lower;
  const std::string_view upper = range.upper;
  const bool lower_below_all = !lower.starts_with(key) && lower < key;
  const bool upper_above_all = !range.has_upper || (!upper.starts_with(key) && upper > key);
  if (forward) {
    if (lower.starts_with(key)) {
      return VisitForward(items, begin(), range, visit, kPartitionPrefetch, upper_above_all);
    }
    if (lower > key) return true;  // every item is below the range
    return VisitForward(items, items.begin(), range, visit, kPartitionPrefetch, upper_above_all);
  }
  if (upper_above_all) {
    return VisitBackward(items, items.end(), range, visit, kPartitionPrefetch, lower_below_all);
  }
  if (upper.starts_with(key)) {
    return VisitBackward(items, end(), range, visit, kPartitionPrefetch, lower_below_all);
  }
  return true;  // every item is above the range
}

void TableRecords::WalkPartitions(const KeyRange& range, bool forward, const Visit& visit) const {
  if (forward) {
    // The first partition that can hold keys from `lower` on: the one `lower` starts with (the
    // last partition at or below it), else the first above it.
    auto it = partitions_.upper_bound(std::string_view(range.lower));
    if (it != partitions_.begin() &&
        std::string_view(range.lower).starts_with(KeyOf(std::prev(it)->partition))) {
      --it;
    }
    for (; it != partitions_.end(); ++it) {
      if (!WalkPartition(it->partition, range, true, visit)) return;
    }
    return;
  }
  // Partitions above `upper` hold only keys above it.
  auto it =
      range.has_upper ? partitions_.upper_bound(std::string_view(range.upper)) : partitions_.end();
  while (it != partitions_.begin()) {
    --it;
    if (!WalkPartition(it->partition, range, false, visit)) return;
  }
}

}  // namespace ddbd
