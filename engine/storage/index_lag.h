// Global secondary indexes that lag behind their table (--gsi-lag-ms, issue 45): DynamoDB updates a
// GSI asynchronously, so a Query or Scan of one right after a write may miss it, see the item as
// it was, or still see it after its deletion. With the option on, a table's writes queue their
// GSI entry changes here, each due a delay after the write, and the index takes them when they
// are due (TableItems::CatchUpIndexes, before the index is read). Local secondary indexes stay
// synchronous, as in DynamoDB.
//
// Order: every change is due no earlier than the one queued before it (a random delay may not
// let a later change overtake an earlier one), so each index entry goes through its states in
// the order the writes made them. A pause (the admin API's, shared by every table) holds every
// change until it is lifted.
//
// Thread safety: Queue and TakeDue under the table's write lock, PendingBySlot under its read lock;
// Due and pending without it.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/item_records.h"

namespace ddbd {

struct IndexLagOptions {
  int64_t min_ms = 0;  // each change's delay: uniform in [min_ms, max_ms]
  int64_t max_ms = 0;
  const Clock* clock = nullptr;
  // Set: every change is held (POST /_ddbd/gsi-propagation/pause). Shared by the engine's tables.
  std::shared_ptr<const std::atomic<bool>> paused;
};

class IndexLag {
 public:
  explicit IndexLag(IndexLagOptions options);
  ~IndexLag();  // frees the entries of changes never applied
  IndexLag(const IndexLag&) = delete;
  IndexLag& operator=(const IndexLag&) = delete;

  // One change of index `slot`: its entry `key` removed, or `record` (owned from now on) inserted.
  struct Change {
    int64_t due_ms = 0;
    size_t slot = 0;
    std::string key;               // a removal's
    ItemRecord* record = nullptr;  // an insertion's
  };
  // When the next change is due: a change of one entry (its removal and its successor's
  // insertion) shares one.
  int64_t NextDueMs();
  void QueueRemoval(int64_t due_ms, size_t slot, std::string key);
  void QueueInsertion(int64_t due_ms, size_t slot, ItemRecord* record);
  // Whether a change is due now (and not held by the pause).
  bool Due() const;
  // Hands each change due now (every change when `all`, pause or not), in order, to `apply`,
  // which takes ownership of an insertion's record.
  void TakeDue(bool all, const std::function<void(Change&)>& apply);
  // Changes queued and not yet taken, per index slot (metrics), and in all.
  std::vector<uint64_t> PendingBySlot() const;
  size_t pending() const { return pending_.load(std::memory_order_relaxed); }

 private:
  void Push(Change change);

  const IndexLagOptions options_;
  std::mt19937_64 random_;
  std::deque<Change> changes_;
  int64_t last_due_ms_ = 0;
  // The first change's due time (INT64_MAX: none), read by Due without the table's lock.
  std::atomic<int64_t> first_due_ms_;
  std::atomic<size_t> pending_ = 0;
};

}  // namespace ddbd
