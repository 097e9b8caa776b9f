#include "engine/storage/table_items.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

namespace ddbd {
namespace {

Error CollectionTooLarge() {
  return Error(ErrorCode::kItemCollectionSizeLimitExceeded,
               // The message as DynamoDB's API reference documents it.
               "The total size of an item collection has exceeded the maximum limit of 10 "
               "gigabytes.");
}

}  // namespace

TableItems::~TableItems() = default;

TableItems::Index TableItems::NewIndexLocked(size_t slot) const {
  Index index{std::make_unique<TableRecords>(), 0};
  if (index_partition_length_) {
    index.entries->UsePartitions(
        [length = index_partition_length_, slot](std::string_view key) {
          return length(slot, key);
        },
        false);  // entries are found only to be replaced: no hash of their keys
  }
  return index;
}

void TableItems::UsePartitions(PrefixLength prefix_length, bool hashed_keys) {
  std::unique_lock lock(mutex_);
  items_.UsePartitions(std::move(prefix_length), hashed_keys);
}

void TableItems::SetIndexes(size_t count, EntriesOf entries_of,
                            IndexPartitionLength partition_length) {
  std::unique_lock lock(mutex_);
  entries_of_ = std::move(entries_of);
  index_partition_length_ = std::move(partition_length);
  indexes_.clear();
  for (size_t slot = 0; slot < count; ++slot) indexes_.push_back(NewIndexLocked(slot));
}

void TableItems::ChangeIndexes(const std::vector<size_t>& added, const std::vector<size_t>& dropped,
                               EntriesOf entries_of, IndexPartitionLength partition_length,
                               const std::function<void()>& locked) {
  Garbage garbage;
  std::vector<Index> gone;  // destroyed after the lock is released, as garbage is
  std::unique_lock lock(mutex_);
  // Changes queued for the old set go in first: a dropped index's with it, the others' before
  // the backfill reads the items.
  if (lag_) ApplyLaggedLocked(true, garbage);
  entries_of_ = std::move(entries_of);
  index_partition_length_ = std::move(partition_length);
  ++index_generation_;
  for (size_t slot : dropped) {
    if (slot >= indexes_.size()) continue;
    gone.push_back(std::move(indexes_[slot]));
    indexes_[slot] = NewIndexLocked(slot);
  }
  for (size_t slot : added) {
    while (indexes_.size() <= slot) indexes_.push_back(NewIndexLocked(indexes_.size()));
    // A slot is used again only after its index was dropped: the new one's partitions.
    if (indexes_[slot].entries->size() == 0) indexes_[slot] = NewIndexLocked(slot);
  }
  const bool backfill = !added.empty() && !indexes_deferred();
  if (backfill) backfilling_.store(true, std::memory_order_release);
  locked();
  if (backfill) {
    for (size_t slot : added) indexes_[slot].entries->ExpectKeyOrder(true);
    // Each item's entries in the added indexes are a change of their own (origin kBackfill, the
    // item itself unchanged), through the same path as every write.
    const CommitContext context{ChangeOrigin::kBackfill, 0};
    const IndexEntries none;
    IndexEntries entries;
    items_.ForEach([&](const ItemRecord* record) {
      // Whole-item entries point at the record unless the lag keeps copies (NewEntryLocked).
      entries_of_(record->key(), record->blob(), record->item_size(),
                  lag_ == nullptr ? WholeItems::kSizeOnly : WholeItems::kCopied, entries);
      std::erase_if(entries, [&](const IndexEntry& entry) {
        return std::find(added.begin(), added.end(), entry.index) == added.end();
      });
      if (entries.empty()) return;
      ItemRecord* item = const_cast<ItemRecord*>(record);
      Committed change;
      ApplyLocked(record->key(), item, item, none, entries, CollectionSizeLocked(record->key()),
                  context, change, garbage, nullptr);
    });
    for (size_t slot : added) indexes_[slot].entries->ExpectKeyOrder(false);
    backfilling_.store(false, std::memory_order_release);
  }
  lock.unlock();
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
}

void TableItems::LagGlobalIndexes(IndexLagOptions options) {
  std::unique_lock lock(mutex_);
  lag_ = std::make_unique<IndexLag>(std::move(options));
  // Whole-item entries made so far (a replay's indexes) become copies (NewEntryLocked).
  for (Index& index : indexes_) {
    std::vector<ItemRecord*> whole;
    index.entries->ForEach([&](const ItemRecord* entry) {
      if (entry->whole_item()) whole.push_back(const_cast<ItemRecord*>(entry));
    });
    for (ItemRecord* entry : whole) {
      index.entries->Replace(entry, ItemRecord::Create(entry->key(), entry->Copy()));
      ItemRecord::Destroy(entry);
    }
  }
}

ItemRecord* TableItems::NewEntryLocked(const IndexEntry& entry, const ItemRecord* item) const {
  if (entry.whole_item && lag_ == nullptr) return ItemRecord::CreateWholeItemEntry(entry.key, item);
  return ItemRecord::Create(entry.key, entry.item);
}

bool TableItems::LaggedLocked(size_t slot) const {
  return lag_ != nullptr &&
         std::find(local_slots_.begin(), local_slots_.end(), slot) == local_slots_.end();
}

void TableItems::CatchUpIndexes() {
  if (lag_ == nullptr || !lag_->Due()) return;
  Garbage garbage;
  {
    std::unique_lock lock(mutex_);
    ApplyLaggedLocked(false, garbage);
  }
  for (ItemRecord* dead : garbage) ItemRecord::Destroy(dead);
}

void TableItems::ApplyLaggedLocked(bool all, Garbage& garbage) {
  lag_->TakeDue(all, [&](IndexLag::Change& change) {
    if (change.slot >= indexes_.size()) {  // dropped meanwhile
      if (change.record != nullptr) garbage.push_back(change.record);
      return;
    }
    Index& index = indexes_[change.slot];
    if (change.record == nullptr) {
      ItemRecord* entry = index.entries->Find(change.key);
      if (entry == nullptr) return;
      index.size_bytes -= entry->item_size();
      index.entries->Remove(entry);
      garbage.push_back(entry);
      return;
    }
    index.size_bytes += change.record->item_size();
    // Not expected (a removal comes first), but never two entries of one key.
    if (ItemRecord* entry = index.entries->Find(change.record->key()); entry != nullptr) {
      index.size_bytes -= entry->item_size();
      index.entries->Replace(entry, change.record);
      garbage.push_back(entry);
      return;
    }
    index.entries->Insert(change.record);
  });
}

std::vector<uint64_t> TableItems::PendingIndexChanges() const {
  if (lag_ == nullptr || lag_->pending() == 0) return {};
  std::shared_lock lock(mutex_);
  return lag_->PendingBySlot();
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

void TableItems::SetItemCollectionLimit(int64_t limit_bytes) {
  std::unique_lock lock(mutex_);
  collection_limit_bytes_ = limit_bytes;
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
  if (record == nullptr || indexes_.empty() || indexes_deferred()) return {};
  return EntriesOfItem(record->key(), record->blob(), record->item_size(), WholeItems::kCopied);
}

int64_t TableItems::CollectionDeltaLocked(const ItemRecord* old_record,
                                          const IndexEntries& old_entries,
                                          const StoredItem* new_item,
                                          const IndexEntries& new_entries) const {
  int64_t delta = 0;
  if (old_record != nullptr) delta -= CollectionBytesLocked(old_record->item_size(), old_entries);
  if (new_item != nullptr) delta += CollectionBytesLocked(new_item->size_bytes, new_entries);
  return delta;
}

Status TableItems::ChargeCollectionLocked(std::string_view key, const ItemRecord* old_record,
                                          const IndexEntries& old_entries,
                                          const StoredItem* new_item,
                                          const IndexEntries& new_entries,
                                          int64_t& collection_bytes) {
  collection_bytes = -1;
  if (!track_collections_) return Ok{};
  const int64_t delta = CollectionDeltaLocked(old_record, old_entries, new_item, new_entries);
  const std::string prefix(items_.PartitionOf(key));
  auto it = collections_.try_emplace(prefix, 0).first;
  if (delta > 0 && it->second + delta > collection_limit_bytes_) {
    if (it->second == 0) collections_.erase(it);
    return CollectionTooLarge();
  }
  it->second += delta;
  collection_bytes = std::max<int64_t>(it->second, 0);
  if (it->second <= 0) collections_.erase(it);
  return Ok{};
}

uint64_t TableItems::index_generation() const {
  // Changed only under the write lock; read without it on every item operation.
  return index_generation_.load(std::memory_order_acquire);
}

void TableItems::RetireLocked(std::string_view key, ItemRecord* record,
                              const CommitContext& context, Garbage& garbage) {
  if (history_ != nullptr && context.origin != ChangeOrigin::kLoad) {
    history_->Record(key, record, garbage);
  } else if (record != nullptr) {
    garbage.push_back(record);
  }
}

std::optional<StoredItem> TableItems::Get(std::string_view key, int64_t moment_ms) const {
  std::shared_lock lock(mutex_);
  if (moment_ms != kLatestState && history_ != nullptr) {
    if (const ItemHistory::State past = history_->StateAt(key, moment_ms); past.changed) {
      if (past.item == nullptr) return std::nullopt;
      return past.item->Copy();
    }
  }
  // Loads the probe's control bytes and slots together, where find alone waits for one, then
  // the other: one cache miss fewer on a large table.
  items_.Prefetch(key);
  const ItemRecord* record = items_.Find(key);
  if (record == nullptr) return std::nullopt;
  return record->Copy();
}

int64_t TableItems::CollectionSizeLocked(std::string_view key) const {
  if (!track_collections_) return -1;
  auto it = collections_.find(std::string(items_.PartitionOf(key)));
  return it == collections_.end() ? 0 : it->second;
}

Result<TableItems::CommitResult> TableItems::Commit(WriteScope& scope, std::string_view key,
                                                    Decide decide, const CommitContext& context) {
  if (!scope.Holds(*this)) return Error::Internal("write outside its write scope");
  ItemRecord* existing = items_.Find(key);
  Current current;
  if (existing != nullptr) current = {existing->blob(), existing->item_size()};
  auto decided = decide(existing != nullptr ? &current : nullptr);
  if (!decided.ok()) return decided.error();
  const Write& write = decided.value();
  const bool put = write.kind == Write::Kind::kPut;
  CommitResult result;
  if (write.keep_old && existing != nullptr) result.old_item = existing->Copy();
  if (put ? existing != nullptr && EqualItems(existing->blob(), write.item->blob)
          : existing == nullptr) {
    // Nothing changes: the item, its index entries and its collection stay as they are (also
    // when only the order of its attributes, map members or set members would).
    ApplyLocked(key, existing, existing, {}, {}, CollectionSizeLocked(key), context, result.change,
                scope.garbage_, &scope.log_);
    return result;
  }
  const IndexEntries old_entries = EntriesOfLocked(existing);
  static const IndexEntries kNoEntries;
  const IndexEntries* new_entries = &kNoEntries;
  IndexEntries recomputed;
  if (put && !indexes_.empty() && !indexes_deferred()) {
    if (write.generation != index_generation_) {
      // Prepared before an index was added or dropped: recomputed for the current set.
      entries_of_(key, write.item->blob, write.item->size_bytes, WholeItems::kCopied, recomputed);
      new_entries = &recomputed;
    } else if (write.entries != nullptr) {
      new_entries = write.entries;
    }
  }
  int64_t collection_bytes = -1;
  if (Status charged = ChargeCollectionLocked(
          key, existing, old_entries, put ? write.item : nullptr, *new_entries, collection_bytes);
      !charged.ok()) {
    return charged.error();
  }
  ItemRecord* added = put ? ItemRecord::Create(key, *write.item) : nullptr;
  ApplyLocked(key, existing, added, old_entries, *new_entries, collection_bytes, context,
              result.change, scope.garbage_, &scope.log_);
  return result;
}

bool TableItems::Peek(const WriteScope& scope, std::string_view key, Current* current) const {
  if (!scope.Holds(*this)) return false;
  const ItemRecord* existing = items_.Find(key);
  if (existing == nullptr) return false;
  *current = {existing->blob(), existing->item_size()};
  return true;
}

Status TableItems::CheckCollection(const WriteScope& scope, std::string_view key,
                                   const Write& write) const {
  if (!track_collections_ || !scope.Holds(*this)) return Ok{};
  const ItemRecord* existing = items_.Find(key);
  const bool put = write.kind == Write::Kind::kPut;
  IndexEntries new_entries;
  if (put) {
    new_entries =
        write.entries != nullptr
            ? *write.entries
            : EntriesOfItem(key, write.item->blob, write.item->size_bytes, WholeItems::kCopied);
  }
  const int64_t delta = CollectionDeltaLocked(existing, EntriesOfLocked(existing),
                                              put ? write.item : nullptr, new_entries);
  const int64_t bytes = std::max<int64_t>(CollectionSizeLocked(key), 0);
  if (delta > 0 && bytes + delta > collection_limit_bytes_) return CollectionTooLarge();
  return Ok{};
}

std::optional<StoredItem> TableItems::Read(const ReadScope& scope, std::string_view key) const {
  if (!scope.Holds(*this)) return std::nullopt;
  const ItemRecord* record = items_.Find(key);
  if (record == nullptr) return std::nullopt;
  return record->Copy();
}

void TableItems::ApplyLocked(std::string_view key, ItemRecord* existing, ItemRecord* added,
                             const IndexEntries& old_entries, const IndexEntries& new_entries,
                             int64_t collection_bytes, const CommitContext& context,
                             Committed& change, Garbage& garbage, LogSlot* log) {
  change.had_item = existing != nullptr;
  change.old_size = existing != nullptr ? existing->item_size() : 0;
  change.new_size = added != nullptr ? added->item_size() : 0;
  if (existing == added) {
    change.kind = ChangeKind::kNone;
  } else if (existing == nullptr) {
    change.kind = ChangeKind::kInsert;
    items_.Insert(added);
    if (history_ != nullptr) RetireLocked(key, nullptr, context, garbage);
  } else if (added == nullptr) {
    change.kind = ChangeKind::kRemove;
    items_.Remove(existing);
    RetireLocked(key, existing, context, garbage);
  } else {
    change.kind = ChangeKind::kModify;
    items_.Replace(existing, added);
    RetireLocked(key, existing, context, garbage);
  }
  size_bytes_ += static_cast<int64_t>(change.new_size) - static_cast<int64_t>(change.old_size);
  // A backfill and a load fill the indexes at once; other changes of a global index wait
  // (--gsi-lag-ms).
  const bool lagging = lag_ != nullptr && context.origin != ChangeOrigin::kBackfill &&
                       context.origin != ChangeOrigin::kLoad;
  auto lagged = [&](size_t slot) { return lagging && LaggedLocked(slot); };
  auto insert = [&](Index& index, const IndexEntry& entry) {
    index.size_bytes += entry.item.size_bytes;
    index.entries->Insert(NewEntryLocked(entry, added));
  };
  for (const IndexEntry& old_entry : old_entries) {
    const IndexEntry* match = nullptr;
    for (const IndexEntry& entry : new_entries) {
      if (entry.index == old_entry.index) match = &entry;
    }
    IndexEntryChange& entry_change = change.indexes.emplace_back();
    entry_change.index = old_entry.index;
    entry_change.had_entry = true;
    entry_change.old_size = old_entry.item.size_bytes;
    if (match != nullptr) {
      entry_change.has_entry = true;
      entry_change.new_size = match->item.size_bytes;
      entry_change.key_changed = match->key != old_entry.key;
      entry_change.item_changed =
          !entry_change.key_changed && match->item.blob != old_entry.item.blob;
    }
    // A whole-item entry always changes with its item's record (Commit writes no record for an
    // equal item), so none is left pointing at the record that goes.
    if (!entry_change.changed()) continue;
    if (lagged(old_entry.index)) {  // the index takes the change later, in order
      const int64_t due_ms = lag_->NextDueMs();
      lag_->QueueRemoval(due_ms, old_entry.index, old_entry.key);
      if (match != nullptr) {
        lag_->QueueInsertion(due_ms, match->index, ItemRecord::Create(match->key, match->item));
      }
      continue;
    }
    Index& index = indexes_[old_entry.index];
    ItemRecord* entry = index.entries->Find(old_entry.key);
    if (entry == nullptr) continue;
    index.size_bytes -= entry->item_size();
    garbage.push_back(entry);
    if (entry_change.item_changed) {
      // Same key: the new entry takes the old one's slot, as the order does not change.
      index.entries->Replace(entry, NewEntryLocked(*match, added));
      index.size_bytes += match->item.size_bytes;
      continue;
    }
    index.entries->Remove(entry);
    if (match != nullptr) insert(index, *match);
  }
  for (const IndexEntry& entry : new_entries) {
    const bool had = std::any_of(old_entries.begin(), old_entries.end(),
                                 [&](const IndexEntry& old) { return old.index == entry.index; });
    if (had) continue;
    IndexEntryChange& entry_change = change.indexes.emplace_back();
    entry_change.index = entry.index;
    entry_change.has_entry = true;
    entry_change.new_size = entry.item.size_bytes;
    if (lagged(entry.index)) {
      lag_->QueueInsertion(lag_->NextDueMs(), entry.index,
                           ItemRecord::Create(entry.key, entry.item));
    } else {
      insert(indexes_[entry.index], entry);
    }
  }
  change.item_collection_bytes = collection_bytes;
  if (change.kind != ChangeKind::kNone) {
    change.table_sequence = ++sequence_;
    // One writer at a time (the write lock): a plain increment, published for readers.
    auto bump = [](std::atomic<uint64_t>& count) {
      count.store(count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    };
    bump(change.kind == ChangeKind::kInsert   ? inserts_
         : change.kind == ChangeKind::kModify ? modifies_
                                              : removes_);
    if (context.origin == ChangeOrigin::kTimeToLive) bump(time_to_live_removes_);
  }
  const bool logged = log_ != nullptr && log_->observed();
  if (!logged && observers_.empty()) return;
  ChangeRecord record;
  record.table_id = id_;
  record.table_sequence = change.table_sequence;
  record.log_sequence = logged && change.kind != ChangeKind::kNone ? log_->NextSequence() : 0;
  record.transaction_id = context.transaction_id;
  record.origin = context.origin;
  record.kind = change.kind;
  record.key = key;
  if (existing != nullptr) record.old_item = existing->blob();
  if (added != nullptr) record.new_item = added->blob();
  record.old_size = change.old_size;
  record.new_size = change.new_size;
  record.indexes = change.indexes;
  record.item_collection_bytes = change.item_collection_bytes;
  record.log = log;
  // The table's own observers first: the log then keeps what its stream made of the change with
  // the change (Journal::OnCommit).
  for (const auto& observer : observers_) observer->OnCommit(record);
  if (logged) log_->Publish(record);
  if (log != nullptr) change.ticket = log->ticket;
}

void TableItems::Observe(std::shared_ptr<CommitObserver> observer, const ExistingItem& existing,
                         const std::function<void()>& walked) {
  {
    std::unique_lock lock(mutex_);
    observers_.push_back(std::move(observer));
  }
  if (!existing) return;
  // Attached first, then the items walked under the read lock: readers go on meanwhile, and a
  // change committed in between reaches the observer and leaves the walk the same state.
  std::shared_lock lock(mutex_);
  items_.ForEach([&](const ItemRecord* record) { existing(record->key(), record->blob()); });
  if (walked) walked();
}

void TableItems::StopObserving(const CommitObserver* observer) {
  std::unique_lock lock(mutex_);
  std::erase_if(observers_, [observer](const auto& held) { return held.get() == observer; });
}

void TableItems::WhileHeld(const std::function<void()>& read) const {
  std::shared_lock lock(mutex_);
  read();
}

void TableItems::Walk(const KeyRange& range, bool forward, const Visit& visit,
                      int64_t moment_ms) const {
  // One partition's walk (a Query) needs no order across partitions: TableRecords::Walk finds
  // it by hash, so a replayed table answers Queries while its tree is built.
  if (range.partition.empty()) WaitForOrder();
  std::shared_lock lock(mutex_);
  if (moment_ms == kLatestState || history_ == nullptr) {
    items_.Walk(range, forward, visit);
    return;
  }
  WalkAtLocked(SIZE_MAX, range, forward, moment_ms, visit,
               [&](const Visit& merged) { items_.Walk(range, forward, merged); });
}

void TableItems::WalkAllThen(const Visit& visit, const std::function<void()>& then) const {
  WaitForOrder();
  std::shared_lock lock(mutex_);
  items_.Walk(KeyRange{"", true, "", false, false, ""}, true, visit);
  then();
}

void TableItems::WalkIndex(size_t index, const KeyRange& range, bool forward, const Visit& visit,
                           int64_t moment_ms) const {
  WaitForIndexes();
  std::shared_lock lock(mutex_);
  if (index >= indexes_.size()) return;  // an index created after the caller looked
  const bool local =
      std::find(local_slots_.begin(), local_slots_.end(), index) != local_slots_.end();
  if (moment_ms == kLatestState || history_ == nullptr || !local) {
    indexes_[index].entries->Walk(range, forward, visit);
    return;
  }
  WalkAtLocked(index, range, forward, moment_ms, visit,
               [&](const Visit& merged) { indexes_[index].entries->Walk(range, forward, merged); });
}

bool TableItems::FindDuringWalk(std::string_view key, std::string_view* blob, uint32_t* size,
                                int64_t moment_ms) const {
  if (moment_ms != kLatestState && history_ != nullptr) {
    if (const ItemHistory::State past = history_->StateAt(key, moment_ms); past.changed) {
      if (past.item == nullptr) return false;
      *blob = past.item->blob();
      *size = past.item->item_size();
      return true;
    }
  }
  const ItemRecord* record = items_.Find(key);
  if (record == nullptr) return false;
  *blob = record->blob();
  *size = record->item_size();
  return true;
}

TableItems::ChangeCounts TableItems::change_counts() const {
  return {inserts_.load(std::memory_order_relaxed), modifies_.load(std::memory_order_relaxed),
          removes_.load(std::memory_order_relaxed),
          time_to_live_removes_.load(std::memory_order_relaxed)};
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
  WaitForIndexes();
  std::shared_lock lock(mutex_);
  return index < indexes_.size() ? static_cast<int64_t>(indexes_[index].entries->size()) : 0;
}

int64_t TableItems::index_size_bytes(size_t index) const {
  WaitForIndexes();
  std::shared_lock lock(mutex_);
  return index < indexes_.size() ? indexes_[index].size_bytes : 0;
}

}  // namespace ddbd
