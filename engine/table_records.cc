#include "engine/table_records.h"

#include <cstring>
#include <iterator>
#include <new>

namespace ddbd {

std::string_view TableRecords::Partition::key() const {
  return {reinterpret_cast<const char*>(this + 1), key_size};
}

TableRecords::Partition* TableRecords::Partition::Create(std::string_view key) {
  void* memory = ::operator new(sizeof(Partition) + key.size());
  // The partition's items all start with its bytes: their trees order them from the sort key on.
  auto* partition = new (memory)
      Partition{RecordTree(ByRecordKey{key.size()}), static_cast<uint32_t>(key.size())};
  std::memcpy(reinterpret_cast<char*>(partition + 1), key.data(), key.size());
  return partition;
}

void TableRecords::Partition::Destroy(Partition* partition) {
  partition->~Partition();
  ::operator delete(partition);
}

TableRecords::~TableRecords() {
  for (const auto& ref : hashed_) ItemRecord::Destroy(ref.target);
  for (const PartitionSlot& slot : partitions_) Partition::Destroy(slot.partition);
}

void TableRecords::UsePartitions(PrefixLength prefix_length) {
  prefix_length_ = std::move(prefix_length);
}

void TableRecords::Prefetch(std::string_view key) const { hashed_.prefetch(key); }

ItemRecord* TableRecords::Find(std::string_view key) const {
  auto it = hashed_.find(key);
  return it == hashed_.end() ? nullptr : it->target;
}

TableRecords::Partition* TableRecords::FindPartition(std::string_view key) const {
  auto it = partition_index_.find(key);
  return it == partition_index_.end() ? nullptr : it->target;
}

void TableRecords::Insert(ItemRecord* record) {
  hashed_.insert(RefTo(record));
  if (!partitioned()) {
    tree_.insert(RecordSlot(record, 0));
    return;
  }
  const std::string_view key = record->key().substr(0, prefix_length_(record->key()));
  Partition* partition = FindPartition(key);
  if (partition == nullptr) {
    partition = Partition::Create(key);
    partition_index_.insert(RefTo(partition));
    partitions_.insert(PartitionSlot{KeyPrefix(key), partition});
  }
  partition->items.insert(RecordSlot(record, partition->key_size));
}

void TableRecords::Replace(ItemRecord* old, ItemRecord* record) {
  // Same key bytes: the same place in the order and the same hash bucket, so no rebalancing.
  const std::string_view key = old->key();
  hashed_.find(key)->target = record;
  if (!partitioned()) {
    tree_.find(key)->record = record;
    return;
  }
  FindPartition(key.substr(0, prefix_length_(key)))->items.find(key)->record = record;
}

void TableRecords::Remove(ItemRecord* record) {
  const std::string_view key = record->key();
  hashed_.erase(key);
  if (!partitioned()) {
    tree_.erase(key);
    return;
  }
  Partition* partition = FindPartition(key.substr(0, prefix_length_(key)));
  partition->items.erase(key);
  if (!partition->items.empty()) return;
  partitions_.erase(partition->key());
  partition_index_.erase(partition->key());
  Partition::Destroy(partition);
}

void TableRecords::Walk(const KeyRange& range, bool forward, const Visit& visit) const {
  if (!partitioned()) {
    WalkTree(tree_, range, forward, visit);
  } else if (!range.partition.empty()) {
    partition_index_.prefetch(range.partition);  // control bytes and slots in one wait
    if (const Partition* partition = FindPartition(range.partition)) {
      WalkPartition(*partition, range, forward, visit);
    }
  } else {
    WalkPartitions(range, forward, visit);
  }
}

// Partition keys are self-delimiting, so no partition's key is a prefix of another's. A bound
// that starts with a partition's key falls among its items; any other bound is below or above
// all of them, as it is below or above the partition's key.
bool TableRecords::WalkPartition(const Partition& partition, const KeyRange& range, bool forward,
                                 const Visit& visit) {
  const RecordTree& items = partition.items;
  const std::string_view key = partition.key();
  if (forward) {
    const std::string_view lower = range.lower;
    if (lower.starts_with(key)) return VisitForward(items, RangeBegin(items, range), range, visit);
    if (lower > key) return true;  // every item is below the range
    return VisitForward(items, items.begin(), range, visit);
  }
  const std::string_view upper = range.upper;
  if (!range.has_upper || (!upper.starts_with(key) && upper > key)) {
    return VisitBackward(items, items.end(), range, visit);
  }
  if (upper.starts_with(key)) return VisitBackward(items, RangeEnd(items, range), range, visit);
  return true;  // every item is above the range
}

void TableRecords::WalkPartitions(const KeyRange& range, bool forward, const Visit& visit) const {
  if (forward) {
    // The first partition that can hold keys from `lower` on: the one `lower` starts with (the
    // last partition at or below it), else the first above it.
    auto it = partitions_.upper_bound(std::string_view(range.lower));
    if (it != partitions_.begin() &&
        std::string_view(range.lower).starts_with(std::prev(it)->partition->key())) {
      --it;
    }
    for (; it != partitions_.end(); ++it) {
      if (!WalkPartition(*it->partition, range, true, visit)) return;
    }
    return;
  }
  // Partitions above `upper` hold only keys above it.
  auto it =
      range.has_upper ? partitions_.upper_bound(std::string_view(range.upper)) : partitions_.end();
  while (it != partitions_.begin()) {
    --it;
    if (!WalkPartition(*it->partition, range, false, visit)) return;
  }
}

}  // namespace ddbd
