// What a table's items held over the last moments, for eventually consistent reads that read the
// past (--stale-reads-ms, issue 45). DynamoDB answers an eventually consistent read from any of an
// item's copies, one of which may not have the latest write yet; an application that forgets
// ConsistentRead passes locally and fails there. With the option on, such a read sees the table as
// it was a delay ago (a delay drawn from [min, max] per read): a write is invisible to it for that
// long, a deleted item still there. Strongly consistent reads, transactions and conditions always
// see the latest.
//
// For each change the commit path makes, the item it replaced (or that there was none) and when;
// changes older than the longest delay go (no read reaches back past it), and past a byte cap the
// oldest go first (a read then sees a later state of the window, still one DynamoDB allows).
// Changes of one key are chained, newest first, and keys are kept in key order, so a point read
// costs a map lookup and a walk merges the changed keys of its range in order.
//
// Thread safety: Record under the table's write lock; StateAt and ChangedKeys under its read lock;
// ReadMoment from any thread.
#pragma once

#include <absl/container/btree_map.h>

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/storage/item_records.h"
#include "engine/storage/write_scope.h"

namespace ddbd {

// The moment a read reads as of when it reads the latest state (every strongly consistent read,
// and every read without the option).
inline constexpr int64_t kLatestState = std::numeric_limits<int64_t>::max();

struct ItemHistoryOptions {
  int64_t min_ms = 0;  // each eventually consistent read's delay: uniform in [min_ms, max_ms]
  int64_t max_ms = 0;
  const Clock* clock = nullptr;
  int64_t max_bytes = int64_t{256} << 20;  // of the items kept
};

class ItemHistory {
 public:
  explicit ItemHistory(ItemHistoryOptions options);
  ~ItemHistory();
  ItemHistory(const ItemHistory&) = delete;
  ItemHistory& operator=(const ItemHistory&) = delete;

  // The moment an eventually consistent read sees: now minus its delay.
  int64_t ReadMoment() const;

  // Under the write lock: the item at `key` held `before` (owned from now on; null: there was
  // none) until now. Records dropped from the history go to `garbage` (destroyed after the lock).
  void Record(std::string_view key, ItemRecord* before, Garbage& garbage);

  // What the item at `key` held at `moment_ms`, if it changed after then.
  struct State {
    bool changed = false;              // false: it holds the same now
    const ItemRecord* item = nullptr;  // when changed: what it held (null: none)
  };
  State StateAt(std::string_view key, int64_t moment_ms) const;

  // The keys this history knows, in key order, for a walk's merge; a key listed may not have
  // changed after a given moment (StateAt tells).
  using Keys = absl::btree_map<std::string, uint64_t, std::less<>>;
  const Keys& keys() const { return newest_; }

  size_t bytes() const { return bytes_; }
  size_t changes() const { return entries_.size(); }

 private:
  static constexpr uint64_t kNoEntry = std::numeric_limits<uint64_t>::max();
  struct Entry {
    int64_t ms = 0;
    std::string key;
    ItemRecord* before = nullptr;
    uint64_t previous = kNoEntry;  // the number of the key's change before this one
  };
  const Entry* Find(uint64_t number) const;
  size_t BytesOf(const Entry& entry) const;
  void DropOldest(Garbage& garbage);

  const ItemHistoryOptions options_;
  std::deque<Entry> entries_;
  uint64_t first_number_ = 0;  // the number of entries_.front()
  Keys newest_;                // key -> the number of its newest change
  size_t bytes_ = 0;
};

}  // namespace ddbd
