#include "engine/storage/table_items.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

namespace ddbd {

TableItems::~TableItems() {
  for (Index& index : indexes_) {
    for (const RecordSlot& slot : index.entries) ItemRecord::Destroy(slot.record);
  }
}

void TableItems::UsePartitions(PrefixLength prefix_length) {
  std::unique_lock lock(mutex_);
  items_.UsePartitions(std::move(prefix_length));
}

void TableItems::SetIndexes(size_t count, EntriesOf entries_of) {
  std::unique_lock lock(mutex_);
  indexes_.resize(count);
  entries_of_ = std::move(entries_of);
}

void TableItems::ChangeIndexes(const std::vector<size_t>& added, const std::vector<size_t>& dropped,
                               EntriesOf entries_of, const std::function<void()>& locked) {
  std::vector<ItemRecord*> garbage;
  std::unique_lock lock(mutex_);
  entries_of_ = std::move(entries_of);
  ++index_generation_;
  for (size_t slot : dropped) {
    if (slot >= indexes_.size()) continue;
    for (const RecordSlot& entry : indexes_[slot].entries) garbage.push_back(entry.record);
    indexes_[slot] = Index();
  }
  for (size_t slot : added) {
    if (indexes_.size() <= slot) indexes_.resize(slot + 1);
  }
  if (!added.empty()) backfilling_.store(true, std::memory_order_release);
  locked();
  if (!added.empty()) {
    items_.ForEach([&](const ItemRecord* record) {
      for (const IndexEntry& entry : entries_of_(record->blob())) {
        if (std::find(added.begin(), added.end(), entry.index) == added.end()) continue;
        Index& index = indexes_[entry.index];
        index.size_bytes += entry.item.size_bytes;
        index.entries.insert(RecordSlot(ItemRecord::Create(entry.key, entry.item), 0));
      }
    });
    backfilling_.store(false, std::memory_order_release);
  }
  lock.unlock();
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
}

void TableItems::WaitForBackfill() const {
  // A backfill holds the write lock from start to end.
  std::shared_lock lock(mutex_);
}

void TableItems::TrackItemCollections(int64_t limit_bytes, std::vector<size_t> local_slots) {
  std::unique_lock lock(mutex_);
  collection_limit_bytes_ = limit_bytes;
  track_collections_ = items_.partitioned();
  local_slots_ = std::move(local_slots);
}

int64_t TableItems::CollectionBytesLocked(uint32_t item_size, const IndexEntries& entries) const {
  int64_t bytes = item_size;
  for (const IndexEntry& entry : entries) {
    if (std::find(local_slots_.begin(), local_slots_.end(), entry.index) != local_slots_.end()) {
      bytes += entry.item.size_bytes;
    }
  }
  return bytes;
}

IndexEntries TableItems::EntriesOfLocked(const ItemRecord* record) const {
  if (record == nullptr || indexes_.empty()) return {};
  return entries_of_(record->blob());
}

Status TableItems::ChargeCollectionLocked(std::string_view key, const ItemRecord* old_record,
                                          const IndexEntries& old_entries,
                                          const StoredItem* new_item,
                                          const IndexEntries& new_entries) {
  if (!track_collections_) return Ok{};
  int64_t delta = 0;
  if (old_record != nullptr) delta -= CollectionBytesLocked(old_record->item_size, old_entries);
  if (new_item != nullptr) delta += CollectionBytesLocked(new_item->size_bytes, new_entries);
  const std::string prefix(items_.PartitionOf(key));
  auto it = collections_.try_emplace(prefix, 0).first;
  if (delta > 0 && it->second + delta > collection_limit_bytes_) {
    if (it->second == 0) collections_.erase(it);
    return Error(ErrorCode::kItemCollectionSizeLimitExceeded,
                 // The message as DynamoDB's API reference documents it.
                 "The total size of an item collection has exceeded the maximum limit of 10 "
                 "gigabytes.");
  }
  it->second += delta;
  if (it->second <= 0) collections_.erase(it);
  return Ok{};
}

uint64_t TableItems::index_generation() const {
  // Changed only under the write lock; read without it on every item operation.
  return index_generation_.load(std::memory_order_acquire);
}

void TableItems::ReplaceIndexEntriesLocked(const IndexEntries& old_entries,
                                           const ItemRecord* new_record,
                                           const IndexEntries& prepared, uint64_t generation,
                                           std::vector<ItemRecord*>& garbage) {
  if (indexes_.empty()) return;
  // Entries prepared before an index was added or dropped are recomputed for the current set.
  IndexEntries recomputed;
  const bool stale = new_record != nullptr && generation != index_generation_;
  if (stale) recomputed = entries_of_(new_record->blob());
  const IndexEntries& entries = stale ? recomputed : prepared;
  for (const IndexEntry& old_entry : old_entries) {
    Index& index = indexes_[old_entry.index];
    auto it = index.entries.find(std::string_view(old_entry.key));
    if (it == index.entries.end()) continue;
    index.size_bytes -= (*it)->item_size;
    garbage.push_back(it->record);
    index.entries.erase(it);
  }
  for (const IndexEntry& entry : entries) {
    Index& index = indexes_[entry.index];
    index.size_bytes += entry.item.size_bytes;
    index.entries.insert(RecordSlot(ItemRecord::Create(entry.key, entry.item), 0));
  }
}

std::optional<StoredItem> TableItems::Get(std::string_view key) const {
  std::shared_lock lock(mutex_);
  // Loads the probe's control bytes and slots together, where find alone waits for one, then
  // the other: one cache miss fewer on a large table.
  items_.Prefetch(key);
  const ItemRecord* record = items_.Find(key);
  if (record == nullptr) return std::nullopt;
  return record->Copy();
}

Result<std::optional<StoredItem>> TableItems::Put(std::string_view key, const StoredItem& item,
                                                  const IndexEntries& entries,
                                                  uint64_t generation) {
  ItemRecord* record = ItemRecord::Create(key, item);  // allocate outside the lock
  std::optional<StoredItem> old;
  std::vector<ItemRecord*> garbage;
  std::unique_lock lock(mutex_);
  ItemRecord* replaced = items_.Find(key);
  const IndexEntries old_entries = EntriesOfLocked(replaced);
  if (Status charged = ChargeCollectionLocked(key, replaced, old_entries, &item, entries);
      !charged.ok()) {
    lock.unlock();
    ItemRecord::Destroy(record);
    return charged.error();
  }
  size_bytes_ += item.size_bytes;
  if (replaced == nullptr) {
    items_.Insert(record);
  } else {
    old = replaced->Copy();
    size_bytes_ -= replaced->item_size;
    items_.Replace(replaced, record);
    garbage.push_back(replaced);
  }
  ReplaceIndexEntriesLocked(old_entries, record, entries, generation, garbage);
  lock.unlock();
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
  return old;
}

std::optional<StoredItem> TableItems::Erase(std::string_view key) {
  std::vector<ItemRecord*> garbage;
  std::unique_lock lock(mutex_);
  ItemRecord* removed = items_.Find(key);
  if (removed == nullptr) return std::nullopt;
  const IndexEntries old_entries = EntriesOfLocked(removed);
  (void)ChargeCollectionLocked(key, removed, old_entries, nullptr, {});  // shrinking always fits
  items_.Remove(removed);
  size_bytes_ -= removed->item_size;
  ReplaceIndexEntriesLocked(old_entries, nullptr, {}, index_generation_, garbage);
  lock.unlock();
  StoredItem old = removed->Copy();
  ItemRecord::Destroy(removed);
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
  return old;
}

Result<std::optional<StoredItem>> TableItems::Apply(std::string_view key, const Decide& decide) {
  std::vector<ItemRecord*> garbage;
  std::unique_lock lock(mutex_);
  ItemRecord* existing = items_.Find(key);
  const std::string_view current = existing == nullptr ? std::string_view() : existing->blob();
  auto write = decide(existing == nullptr ? nullptr : &current);
  if (!write.ok()) return write.error();
  const bool put = write.value().kind == Write::Kind::kPut;
  const IndexEntries old_entries = EntriesOfLocked(existing);
  if (Status charged = ChargeCollectionLocked(
          key, existing, old_entries, put ? &write.value().item : nullptr, write.value().entries);
      !charged.ok()) {
    return charged.error();
  }
  std::optional<StoredItem> old;
  if (existing != nullptr) {
    old = existing->Copy();
    size_bytes_ -= existing->item_size;
    garbage.push_back(existing);
  }
  ItemRecord* added = nullptr;
  if (put) {
    size_bytes_ += write.value().item.size_bytes;
    added = ItemRecord::Create(key, write.value().item);
    if (existing != nullptr) {
      items_.Replace(existing, added);
    } else {
      items_.Insert(added);
    }
  } else if (existing != nullptr) {
    items_.Remove(existing);
  }
  ReplaceIndexEntriesLocked(old_entries, added, put ? write.value().entries : IndexEntries(),
                            write.value().generation, garbage);
  lock.unlock();
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
  return old;
}

void TableItems::Walk(const KeyRange& range, bool forward, const Visit& visit) const {
  std::shared_lock lock(mutex_);
  items_.Walk(range, forward, visit);
}

void TableItems::WalkIndex(size_t index, const KeyRange& range, bool forward,
                           const Visit& visit) const {
  std::shared_lock lock(mutex_);
  if (index >= indexes_.size()) return;  // an index created after the caller looked
  WalkTree(indexes_[index].entries, range, forward, visit);
}

bool TableItems::FindDuringWalk(std::string_view key, std::string_view* blob) const {
  const ItemRecord* record = items_.Find(key);
  if (record == nullptr) return false;
  *blob = record->blob();
  return true;
}

int64_t TableItems::item_count() const {
  std::shared_lock lock(mutex_);
  return static_cast<int64_t>(items_.size());
}

int64_t TableItems::size_bytes() const {
  std::shared_lock lock(mutex_);
  return size_bytes_;
}

int64_t TableItems::index_item_count(size_t index) const {
  std::shared_lock lock(mutex_);
  return index < indexes_.size() ? static_cast<int64_t>(indexes_[index].entries.size()) : 0;
}

int64_t TableItems::index_size_bytes(size_t index) const {
  std::shared_lock lock(mutex_);
  return index < indexes_.size() ? indexes_[index].size_bytes : 0;
}

}  // namespace ddbd
