// A table's items as they were at a moment, read while writes go on: the walk takes the table's
// read lock a slice of items at a time (writers wait for one slice, never for the whole table),
// and the point-in-time history (engine/storage/point_in_time_history.h) corrects what changed
// since the moment, so the result is the table exactly as of `moment_ms`. Memory grows with the
// changes made after the moment, never with the table.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/storage/point_in_time_history.h"
#include "engine/storage/table_items.h"

namespace ddbd {

// Calls `visit` with each item's blob and size as of `moment_ms` (in no particular order), until
// it returns false. Walks in slices of `slice` items. False with `failure` set when the history
// no longer reaches back to the moment (trimmed meanwhile for size), or `visit` stopped.
using VisitItem = std::function<bool(std::string_view blob, uint32_t size)>;
bool WalkTableAtMoment(const TableItems& items, const PointInTimeHistory& history,
                       int64_t moment_ms, const VisitItem& visit, std::string& failure,
                       size_t slice = 1024);

// An item changed in [from_ms, to_ms): as it was at from_ms and at to_ms (none: it did not
// exist), and when its last change in the window was made.
struct WindowChange {
  std::string key;
  std::optional<StoredItem> old_image;
  std::optional<StoredItem> new_image;
  int64_t write_ms = 0;
};

// The items changed in [from_ms, to_ms), compacted to one per item (an item made and removed
// within the window is none), in key order; read under one hold of the table's read lock (the
// history's changes since `from_ms` and the items they touched). False with `failure` set when
// the history no longer reaches back to `from_ms`.
bool ChangesInWindow(const TableItems& items, const PointInTimeHistory& history, int64_t from_ms,
                     int64_t to_ms, std::vector<WindowChange>& changes, std::string& failure);

}  // namespace ddbd
