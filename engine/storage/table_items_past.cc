// TableItems' reads of the past (--stale-reads-ms, engine/storage/item_history.h): a walk that
// shows the table, or a local index, as it was at a moment. Apart from table_items.cc, whose
// reads and writes of the present do not need it.
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/storage/table_items.h"

namespace ddbd {

void TableItems::KeepRecentStates(ItemHistoryOptions options) {
  std::unique_lock lock(mutex_);
  history_ = std::make_unique<ItemHistory>(options);
}

void TableItems::WalkAtLocked(size_t index, const KeyRange& range, bool forward, int64_t moment_ms,
                              const Visit& visit,
                              const std::function<void(const Visit&)>& walk) const {
  // What differs at the moment, by key in the walk's order: an item (or entry) it had, or none
  // where there is one now.
  struct Past {
    std::string_view key;
    const ItemRecord* record = nullptr;  // null: nothing there at the moment
  };
  std::vector<Past> past;
  std::vector<ItemRecord*> entries;  // index entries made for the moment, freed at the end
  auto in_range = [&](std::string_view key) {
    return AboveLower(range, key) && BelowUpper(range, key);
  };
  const ItemHistory::Keys& keys = history_->keys();
  // A table's keys in the range; for an index, every changed key of the range's partition (the
  // index shares the table's partition bytes) or of the table.
  const std::string_view from =
      index == SIZE_MAX ? std::string_view(range.lower) : std::string_view(range.partition);
  for (auto it = keys.lower_bound(from); it != keys.end(); ++it) {
    const std::string_view key = it->first;
    if (index == SIZE_MAX ? !BelowUpper(range, key)
                          : !range.partition.empty() && !key.starts_with(range.partition)) {
      break;
    }
    const ItemHistory::State state = history_->StateAt(key, moment_ms);
    if (!state.changed) continue;
    if (index == SIZE_MAX) {
      if (in_range(key)) past.push_back({key, state.item});
      continue;
    }
    // The item's entry now is hidden, its entry at the moment shown.
    auto entry_in = [&](const ItemRecord* item) -> std::optional<IndexEntry> {
      if (item == nullptr) return std::nullopt;
      for (IndexEntry& entry :
           EntriesOfItem(item->key(), item->blob(), item->item_size(), WholeItems::kCopied)) {
        if (entry.index == index) return std::move(entry);
      }
      return std::nullopt;
    };
    std::optional<IndexEntry> then = entry_in(state.item);
    std::optional<IndexEntry> now = entry_in(items_.Find(key));
    if (then) {
      entries.push_back(ItemRecord::Create(then->key, then->item));
      if (in_range(then->key)) past.push_back({entries.back()->key(), entries.back()});
    }
    if (now && (!then || now->key != then->key)) {
      entries.push_back(ItemRecord::Create(now->key, now->item));  // keeps the key's bytes
      if (in_range(now->key)) past.push_back({entries.back()->key(), nullptr});
    }
  }
  std::sort(past.begin(), past.end(), [forward](const Past& a, const Past& b) {
    return forward ? a.key < b.key : a.key > b.key;
  });
  size_t next = 0;
  bool stopped = false;
  auto show = [&](const Past& shown) {
    if (shown.record == nullptr) return true;
    stopped = !visit(shown.key, shown.record->blob(), shown.record->item_size());
    return !stopped;
  };
  walk([&](std::string_view key, std::string_view blob, uint32_t size) {
    // The keys that come first and are not here now: items deleted since the moment.
    while (next < past.size() && (forward ? past[next].key < key : past[next].key > key)) {
      if (!show(past[next++])) return false;
    }
    if (next < past.size() && past[next].key == key) return show(past[next++]);
    stopped = !visit(key, blob, size);
    return !stopped;
  });
  while (!stopped && next < past.size()) show(past[next++]);
  for (ItemRecord* entry : entries) ItemRecord::Destroy(entry);
}

}  // namespace ddbd
