// A table's point-in-time history while point-in-time recovery is enabled: for each change the
// commit path makes, the item it replaced (or that there was none), with the change's time. A
// restore to a moment takes the items as they are and undoes, newest first, every change made
// after it (engine/backups/point_in_time.cc).
//
// Bounded: entries older than `max_age_ms` go (a restore never reaches past the recovery period),
// and past `max_bytes` the oldest go first, moving the earliest restorable moment up to the last
// change dropped. The history starts when it is attached (enabling, or a restart: it lives in
// memory only), so the earliest restorable moment is never before that.
//
// Thread safety: OnCommit runs under the table's write lock, UndosAfter under its read lock (so
// they never overlap); earliest_ms() may be read from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/change.h"
#include "engine/storage/item_records.h"

namespace ddbd {

class PointInTimeHistory final : public CommitObserver {
 public:
  // `start_ms`: the earliest moment it restores to (when recovery was enabled, or the start).
  PointInTimeHistory(const Clock& clock, int64_t start_ms, int64_t max_bytes, int64_t max_age_ms);

  void OnCommit(const ChangeRecord& change) override;
  void SetMaxAge(int64_t max_age_ms);

  // The earliest moment this history can restore to: its start, or the time of the last change
  // dropped for size.
  int64_t earliest_ms() const { return earliest_ms_.load(std::memory_order_acquire); }

  // What undoes one change: the item's key and what it held before (none: it did not exist).
  struct Undo {
    std::string key;
    std::optional<StoredItem> before;
  };
  // Under the table's read lock: the undos of every change made after `moment_ms`, newest first.
  std::vector<Undo> UndosAfter(int64_t moment_ms) const;
  // Under the table's read lock: calls `visit` with the time and undo of each change made after
  // `moment_ms` and numbered `from` or later, oldest first; returns the number the next change
  // will get. Numbers count every change ever recorded, so a reader that calls again with what it
  // got back sees each change once (an export's walk, engine/exports/table_at_moment.h).
  using VisitChange = std::function<void(int64_t ms, const Undo& undo)>;
  uint64_t ChangesAfter(int64_t moment_ms, uint64_t from, const VisitChange& visit) const;

  size_t bytes() const { return bytes_; }

 private:
  struct Entry {
    int64_t ms = 0;
    Undo undo;
  };
  static size_t BytesOf(const Entry& entry);

  const Clock& clock_;
  const int64_t max_bytes_;
  std::atomic<int64_t> max_age_ms_;
  std::deque<Entry> entries_;
  uint64_t first_number_ = 0;  // the number of entries_.front(): how many were dropped
  size_t bytes_ = 0;
  std::atomic<int64_t> earliest_ms_;
};

}  // namespace ddbd
