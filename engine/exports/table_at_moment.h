// A table's items as they were at a moment, read while writes go on: the walk takes the table's
// read lock a slice of items at a time (writers wait for one slice, never for the whole table),
// and the point-in-time history (engine/storage/point_in_time_history.h) corrects what changed
// since the moment, so the result is the table exactly as of `moment_ms`. Memory grows with the
// changes made after the moment, never with the table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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

}  // namespace ddbd
