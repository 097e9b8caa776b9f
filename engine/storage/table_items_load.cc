// TableItems' loading by a store's replay (engine/store/store.cc): room made at once, items
// written without a decision or a copy on the way, and the indexes built once after the log.
// Apart from table_items.cc, whose writes of a running server do not need it.
#include <algorithm>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/storage/table_items.h"

namespace ddbd {

void TableItems::DeferIndexes() {
  std::unique_lock lock(mutex_);
  indexes_deferred_.store(true, std::memory_order_relaxed);
  items_.ExpectKeyOrder(true);  // a checkpoint holds the items in key order
  items_.DeferOrder(true);      // the later log's are not: the trees are built at the end
}

void TableItems::ReserveForLoad(size_t items) {
  std::unique_lock lock(mutex_);
  items_.Reserve(items);
}

void TableItems::StartDeferredBuild() {
  std::unique_lock lock(mutex_);
  if (!indexes_deferred()) return;
  if (items_.order_deferred()) order_building_.store(true, std::memory_order_release);
  if (!indexes_.empty()) indexes_building_.store(true, std::memory_order_release);
}

bool TableItems::EndDeferredOrder() {
  // The trees are built under the read lock (point reads go on; writes and walks wait for
  // order_building_), then put in place under the write lock.
  std::optional<TableRecords::Order> order;
  {
    std::shared_lock lock(mutex_);
    if (indexes_deferred() && items_.order_deferred()) order.emplace(items_.BuildOrder());
  }
  bool indexes_left = false;
  {
    std::unique_lock lock(mutex_);
    if (indexes_deferred()) {
      items_.ExpectKeyOrder(false);
      if (order) items_.InstallOrder(std::move(*order));
      indexes_left = !indexes_.empty();
      if (indexes_left) {
        indexes_building_.store(true, std::memory_order_release);
      } else {
        indexes_deferred_.store(false, std::memory_order_relaxed);
      }
    }
  }
  if (order_building_.load(std::memory_order_acquire)) {
    std::unique_lock lock(build_mutex_);
    order_building_.store(false, std::memory_order_release);
    build_done_.notify_all();
  }
  return indexes_left;
}

void TableItems::WaitForBuild() const {
  std::unique_lock lock(build_mutex_);
  build_done_.wait(lock, [this] { return !indexes_building_.load(std::memory_order_acquire); });
}

void TableItems::WaitForOrderBuild() const {
  std::unique_lock lock(build_mutex_);
  build_done_.wait(lock, [this] { return !order_building_.load(std::memory_order_acquire); });
}

void TableItems::BuildDeferredIndexes() {
  EndDeferredOrder();
  {
    // The read lock: reads of the items go on meanwhile. What this changes (the indexes, the
    // item collections) only writes (which wait for the lock) and readers of an index (which
    // wait for indexes_building_) read.
    std::shared_lock lock(mutex_);
    if (indexes_deferred()) {
      for (size_t slot = 0; slot < indexes_.size(); ++slot) {
        indexes_[slot] = NewIndexLocked(slot);
        indexes_[slot].entries->ExpectKeyOrder(true);
      }
      // Replay counted the collections without their local index entries.
      if (track_collections_) collections_.clear();
      IndexEntries entries;
      items_.ForEach([&](const ItemRecord* record) {
        // Whole-item entries point at the record unless the lag keeps copies (NewEntryLocked).
        entries_of_(record->key(), record->blob(), record->item_size(),
                    lag_ == nullptr ? WholeItems::kSizeOnly : WholeItems::kCopied, entries);
        for (const IndexEntry& entry : entries) {
          Index& index = indexes_[entry.index];
          index.size_bytes += entry.item.size_bytes;
          index.entries->Insert(NewEntryLocked(entry, record));
        }
        if (track_collections_) {
          collections_[std::string(items_.PartitionOf(record->key()))] +=
              CollectionBytesLocked(record->item_size(), entries);
        }
      });
      for (Index& index : indexes_) index.entries->ExpectKeyOrder(false);
      indexes_deferred_.store(false, std::memory_order_relaxed);
    }
  }
  {
    std::lock_guard lock(build_mutex_);
    indexes_building_.store(false, std::memory_order_release);
  }
  build_done_.notify_all();
}

void TableItems::Load(std::string_view key, std::optional<std::string_view> blob, uint32_t size) {
  Garbage garbage;
  {
    std::unique_lock lock(mutex_);
    ItemRecord* existing = items_.Find(key);
    const bool unchanged =
        blob ? existing != nullptr && EqualItems(existing->blob(), *blob) : existing == nullptr;
    // Deferred indexes: no entries to compute or compare, and item collections are counted
    // again with them (BuildDeferredIndexes).
    ItemRecord* added = unchanged ? existing
                        : blob    ? ItemRecord::Create(key, *blob, size)
                                  : nullptr;
    Committed change;
    ApplyLocked(key, existing, added, {}, {}, -1, {ChangeOrigin::kUser, 0}, change, garbage,
                nullptr);
  }
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
}

void TableItems::LoadRecords(std::span<ItemRecord* const> records) {
  Garbage garbage;
  {
    std::unique_lock lock(mutex_);
    // A key's place in a large hash is a cache miss: the places of the next few start loading
    // while this one is looked up (images lie in a row, so their keys are at hand).
    constexpr size_t kAhead = 8;
    for (size_t i = 0; i < std::min(kAhead, records.size()); ++i)
      items_.Prefetch(records[i]->key());
    for (size_t i = 0; i < records.size(); ++i) {
      if (i + kAhead < records.size()) items_.Prefetch(records[i + kAhead]->key());
      ItemRecord* record = records[i];
      ItemRecord* existing = items_.Find(record->key());
      if (existing != nullptr && EqualItems(existing->blob(), record->blob())) {
        garbage.push_back(record);
        continue;
      }
      Committed change;
      ApplyLocked(record->key(), existing, record, {}, {}, -1, {ChangeOrigin::kUser, 0}, change,
                  garbage, nullptr);
    }
  }
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
}

void TableItems::CopyOutRecords(const std::function<bool(const ItemRecord*)>& moved) {
  std::unique_lock lock(mutex_);
  if (!indexes_deferred()) return;  // whole-item index entries would point at the old ones
  std::vector<ItemRecord*> picked;
  items_.ForEach([&](const ItemRecord* record) {
    if (moved(record)) picked.push_back(const_cast<ItemRecord*>(record));
  });
  for (ItemRecord* old : picked) {
    // The same key bytes: the copy takes the old one's place in the hash (no index entries
    // point at records while the indexes are deferred).
    items_.Replace(old, ItemRecord::Create(old->key(), old->blob(), old->item_size()));
    ItemRecord::Destroy(old);
  }
}

}  // namespace ddbd
