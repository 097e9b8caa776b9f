// Why the walk is exact: let cursor be the last key walked (keys are walked in byte order). Each
// slice first takes, under the same hold of the read lock, the changes made since the last slice
// (and after the moment). A key whose first change after the moment shows up then is either
// already walked (key <= cursor: it was unchanged when walked, so what was written is its state
// at the moment) or not yet (the walk will skip it, and its state at the moment is what that
// first change replaced: written at the end, unless there was none). A key never changed after
// the moment is walked as it is, which is as it was.
#include "engine/exports/table_at_moment.h"

#include <absl/container/flat_hash_map.h>

#include <optional>

namespace ddbd {
namespace {

struct Replaced {
  std::optional<StoredItem> before;  // the item at the moment (none: it did not exist)
  bool walked = false;               // already written by the walk, as it was
};

}  // namespace

bool WalkTableAtMoment(const TableItems& items, const PointInTimeHistory& history,
                       int64_t moment_ms, const VisitItem& visit, std::string& failure,
                       size_t slice) {
  absl::flat_hash_map<std::string, Replaced> changed;
  uint64_t next_change = 0;
  std::string cursor;
  bool started = false;
  bool stopped = false;
  auto take_changes = [&] {
    next_change = history.ChangesAfter(moment_ms, next_change,
                                       [&](int64_t, const PointInTimeHistory::Undo& undo) {
                                         auto [it, added] = changed.try_emplace(undo.key);
                                         if (!added)
                                           return;  // its first change after the moment counts
                                         it->second.before = undo.before;
                                         it->second.walked = started && undo.key <= cursor;
                                       });
  };
  for (bool more = true; more && !stopped;) {
    if (history.earliest_ms() > moment_ms) {
      failure = "the point-in-time history no longer reaches back to the export time";
      return false;
    }
    TableItems::KeyRange range;
    range.lower = cursor;
    range.lower_inclusive = !started;
    size_t walked = 0;
    bool fetched = false;
    more = false;
    items.Walk(range, true, [&](std::string_view key, std::string_view blob, uint32_t size) {
      if (!fetched) {
        take_changes();
        fetched = true;
      }
      if (walked == slice) {
        more = true;
        return false;
      }
      cursor.assign(key);
      started = true;
      ++walked;
      // written from its undo, at the end
      if (changed.contains(absl::string_view(key.data(), key.size()))) return true;
      if (!visit(blob, size)) {
        stopped = true;
        return false;
      }
      return true;
    });
  }
  if (stopped) {
    failure = "stopped";
    return false;
  }
  // Changes after the last slice concern keys walked already; only the moment's items that the
  // walk skipped remain.
  for (auto& [key, replaced] : changed) {
    if (replaced.walked || !replaced.before) continue;
    if (!visit(replaced.before->blob, replaced.before->size_bytes)) {
      failure = "stopped";
      return false;
    }
  }
  if (history.earliest_ms() > moment_ms) {
    failure = "the point-in-time history no longer reaches back to the export time";
    return false;
  }
  return true;
}

}  // namespace ddbd
