#include "engine/table_items.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

namespace ddbd {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "KeyPrefix byte-swaps a native load");

std::string_view TableItems::Record::key() const {
  return {reinterpret_cast<const char*>(this + 1), key_size};
}

std::string_view TableItems::Record::blob() const {
  return {reinterpret_cast<const char*>(this + 1) + key_size, blob_size};
}

TableItems::Record* TableItems::Record::Create(std::string_view key, const StoredItem& item) {
  void* memory = ::operator new(sizeof(Record) + key.size() + item.blob.size());
  auto* record = new (memory) Record{static_cast<uint32_t>(key.size()),
                                     static_cast<uint32_t>(item.blob.size()), item.size_bytes};
  char* data = reinterpret_cast<char*>(record + 1);
  std::memcpy(data, key.data(), key.size());
  std::memcpy(data + key.size(), item.blob.data(), item.blob.size());
  return record;
}

void TableItems::Record::Destroy(Record* record) {
  record->~Record();
  ::operator delete(record);
}

uint64_t TableItems::KeyPrefix(std::string_view key) {
  uint64_t prefix = 0;
  if (key.size() >= 8) {  // every table and index key: one load
    std::memcpy(&prefix, key.data(), 8);
    return __builtin_bswap64(prefix);  // x86 and ARM are little-endian
  }
  const size_t n = key.size() < 8 ? key.size() : 8;
  for (size_t i = 0; i < n; ++i) {
    prefix |= static_cast<uint64_t>(static_cast<uint8_t>(key[i])) << (56 - 8 * i);
  }
  return prefix;  // a shorter key is zero-padded, which keeps the byte order
}

StoredItem TableItems::Copy(const Record& record) {
  return StoredItem{std::string(record.blob()), record.item_size};
}

TableItems::~TableItems() {
  for (Record* record : items_) Record::Destroy(record);
  for (Index& index : indexes_) {
    for (Record* record : index.entries) Record::Destroy(record);
  }
}

void TableItems::SetIndexes(size_t count, EntriesOf entries_of) {
  std::unique_lock lock(mutex_);
  indexes_.resize(count);
  entries_of_ = std::move(entries_of);
}

void TableItems::AddIndex(size_t slot, EntriesOf entries_of) {
  std::unique_lock lock(mutex_);
  if (indexes_.size() <= slot) indexes_.resize(slot + 1);
  entries_of_ = std::move(entries_of);
  ++index_generation_;
  Index& index = indexes_[slot];
  for (const Record* record : items_) {
    for (const IndexEntry& entry : entries_of_(record->blob())) {
      if (entry.index != slot) continue;
      index.size_bytes += entry.item.size_bytes;
      index.entries.insert(Slot(Record::Create(entry.key, entry.item)));
    }
  }
}

void TableItems::DropIndex(size_t slot, EntriesOf entries_of) {
  std::vector<Record*> garbage;
  std::unique_lock lock(mutex_);
  entries_of_ = std::move(entries_of);
  ++index_generation_;
  if (slot >= indexes_.size()) return;
  garbage.assign(indexes_[slot].entries.begin(), indexes_[slot].entries.end());
  indexes_[slot] = Index();
  lock.unlock();
  for (Record* dead : garbage) Record::Destroy(dead);
}

void TableItems::TrackItemCollections(int64_t limit_bytes, PrefixLength prefix_length,
                                      std::vector<size_t> local_slots) {
  std::unique_lock lock(mutex_);
  collection_limit_bytes_ = limit_bytes;
  collection_prefix_length_ = std::move(prefix_length);
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

IndexEntries TableItems::EntriesOfLocked(const Record* record) const {
  if (record == nullptr || indexes_.empty()) return {};
  return entries_of_(record->blob());
}

Status TableItems::ChargeCollectionLocked(std::string_view key, const Record* old_record,
                                          const IndexEntries& old_entries,
                                          const StoredItem* new_item,
                                          const IndexEntries& new_entries) {
  if (!collection_prefix_length_) return Ok{};
  int64_t delta = 0;
  if (old_record != nullptr) delta -= CollectionBytesLocked(old_record->item_size, old_entries);
  if (new_item != nullptr) delta += CollectionBytesLocked(new_item->size_bytes, new_entries);
  const std::string prefix(key.substr(0, collection_prefix_length_(key)));
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
                                           const Record* new_record, const IndexEntries& prepared,
                                           uint64_t generation, std::vector<Record*>& garbage) {
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
    garbage.push_back(*it);
    index.entries.erase(it);
  }
  for (const IndexEntry& entry : entries) {
    Index& index = indexes_[entry.index];
    index.size_bytes += entry.item.size_bytes;
    index.entries.insert(Slot(Record::Create(entry.key, entry.item)));
  }
}

std::optional<StoredItem> TableItems::Get(std::string_view key) const {
  std::shared_lock lock(mutex_);
  // Loads the probe's control bytes and slots together, where find alone waits for one, then
  // the other: one cache miss fewer on a large table.
  hashed_items_.prefetch(key);
  auto it = hashed_items_.find(key);
  if (it == hashed_items_.end()) return std::nullopt;
  return Copy(*it->record);
}

Result<std::optional<StoredItem>> TableItems::Put(std::string_view key, const StoredItem& item,
                                                  const IndexEntries& entries,
                                                  uint64_t generation) {
  Record* record = Record::Create(key, item);  // allocate outside the lock
  std::optional<StoredItem> old;
  std::vector<Record*> garbage;
  std::unique_lock lock(mutex_);
  auto it = items_.find(key);
  Record* replaced = it == items_.end() ? nullptr : it->record;
  const IndexEntries old_entries = EntriesOfLocked(replaced);
  if (Status charged = ChargeCollectionLocked(key, replaced, old_entries, &item, entries);
      !charged.ok()) {
    lock.unlock();
    Record::Destroy(record);
    return charged.error();
  }
  size_bytes_ += item.size_bytes;
  if (replaced == nullptr) {
    items_.insert(Slot(record));
    hashed_items_.insert(RefTo(record));
  } else {
    old = Copy(*replaced);
    size_bytes_ -= replaced->item_size;
    ReplaceLocked(it, record);
    garbage.push_back(replaced);
  }
  ReplaceIndexEntriesLocked(old_entries, record, entries, generation, garbage);
  lock.unlock();
  for (Record* dead : garbage) Record::Destroy(dead);
  return old;
}

std::optional<StoredItem> TableItems::Erase(std::string_view key) {
  std::vector<Record*> garbage;
  std::unique_lock lock(mutex_);
  auto it = items_.find(key);
  if (it == items_.end()) return std::nullopt;
  Record* removed = *it;
  const IndexEntries old_entries = EntriesOfLocked(removed);
  (void)ChargeCollectionLocked(key, removed, old_entries, nullptr, {});  // shrinking always fits
  items_.erase(it);
  hashed_items_.erase(key);
  size_bytes_ -= removed->item_size;
  ReplaceIndexEntriesLocked(old_entries, nullptr, {}, index_generation_, garbage);
  lock.unlock();
  StoredItem old = Copy(*removed);
  Record::Destroy(removed);
  for (Record* dead : garbage) Record::Destroy(dead);
  return old;
}

Result<std::optional<StoredItem>> TableItems::Apply(std::string_view key, const Decide& decide) {
  std::vector<Record*> garbage;
  std::unique_lock lock(mutex_);
  auto it = items_.find(key);
  const std::string_view current = it == items_.end() ? std::string_view() : (*it)->blob();
  auto write = decide(it == items_.end() ? nullptr : &current);
  if (!write.ok()) return write.error();
  const bool put = write.value().kind == Write::Kind::kPut;
  Record* existing = it == items_.end() ? nullptr : it->record;
  const IndexEntries old_entries = EntriesOfLocked(existing);
  if (Status charged = ChargeCollectionLocked(
          key, existing, old_entries, put ? &write.value().item : nullptr, write.value().entries);
      !charged.ok()) {
    return charged.error();
  }
  std::optional<StoredItem> old;
  if (existing != nullptr) {
    old = Copy(*existing);
    size_bytes_ -= existing->item_size;
    garbage.push_back(existing);
  }
  Record* added = nullptr;
  if (put) {
    size_bytes_ += write.value().item.size_bytes;
    added = Record::Create(key, write.value().item);
    if (existing != nullptr) {
      ReplaceLocked(it, added);
    } else {
      items_.insert(it, Slot(added));
      hashed_items_.insert(RefTo(added));
    }
  } else if (existing != nullptr) {
    items_.erase(it);
    hashed_items_.erase(key);
  }
  ReplaceIndexEntriesLocked(old_entries, added, put ? write.value().entries : IndexEntries(),
                            write.value().generation, garbage);
  lock.unlock();
  for (Record* dead : garbage) Record::Destroy(dead);
  return old;
}

namespace {
constexpr int kPrefetchDistance = 3;
}  // namespace

// The header, key and start of the blob: what a walk reads first. A fixed span, as reading the
// record's size would wait for the very miss this hides (a prefetch past the end never faults).
void TableItems::Prefetch(const Record* record) {
  const char* bytes = reinterpret_cast<const char*>(record);
  for (int offset = 0; offset < 256; offset += 64) __builtin_prefetch(bytes + offset);
}

void TableItems::WalkTree(const Tree& tree, const KeyRange& range, bool forward,
                          const Visit& visit) {
  auto below_upper = [&](std::string_view key) {
    if (!range.has_upper) return true;
    return range.upper_inclusive ? key <= range.upper : key < range.upper;
  };
  auto above_lower = [&](std::string_view key) {
    return range.lower_inclusive ? key >= range.lower : key > range.lower;
  };
  if (forward) {
    auto it = range.lower_inclusive ? tree.lower_bound(std::string_view(range.lower))
                                    : tree.upper_bound(std::string_view(range.lower));
    // `ahead` runs kPrefetchDistance records in front, so their cache misses overlap with the
    // visits before them (on a large table each record is a miss of its own).
    auto ahead = it;
    for (int i = 0; i < kPrefetchDistance && ahead != tree.end(); ++i) Prefetch(*ahead++);
    for (; it != tree.end() && below_upper((*it)->key()); ++it) {
      if (ahead != tree.end()) Prefetch(*ahead++);
      if (!visit((*it)->key(), (*it)->blob(), (*it)->item_size)) return;
    }
    return;
  }
  auto it = !range.has_upper        ? tree.end()
            : range.upper_inclusive ? tree.upper_bound(std::string_view(range.upper))
                                    : tree.lower_bound(std::string_view(range.upper));
  auto ahead = it;
  for (int i = 0; i < kPrefetchDistance && ahead != tree.begin(); ++i) Prefetch(*--ahead);
  while (it != tree.begin()) {
    --it;
    if (ahead != tree.begin()) Prefetch(*--ahead);
    if (!above_lower((*it)->key())) return;
    if (!visit((*it)->key(), (*it)->blob(), (*it)->item_size)) return;
  }
}

void TableItems::Walk(const KeyRange& range, bool forward, const Visit& visit) const {
  std::shared_lock lock(mutex_);
  WalkTree(items_, range, forward, visit);
}

void TableItems::WalkIndex(size_t index, const KeyRange& range, bool forward,
                           const Visit& visit) const {
  std::shared_lock lock(mutex_);
  if (index >= indexes_.size()) return;  // an index created after the caller looked
  WalkTree(indexes_[index].entries, range, forward, visit);
}

bool TableItems::FindDuringWalk(std::string_view key, std::string_view* blob) const {
  auto it = hashed_items_.find(key);
  if (it == hashed_items_.end()) return false;
  *blob = it->record->blob();
  return true;
}

void TableItems::ReplaceLocked(Tree::iterator slot, Record* record) {
  // Same key bytes: the same place in the order and the same hash bucket, so no rebalancing.
  hashed_items_.find(slot->record->key())->record = record;
  slot->record = record;
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
