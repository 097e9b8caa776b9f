// Why the walk is exact: let cursor be the last key walked (keys are walked in byte order). Each
// slice first takes, under the same hold of the read lock, the changes made since the last slice
// (and after the moment). A key whose first change after the moment shows up then is either
// already walked (key <= cursor: it was unchanged when walked, so what was written is its state
// at the moment) or not yet (the walk will skip it, and its state at the moment is what that
// first change replaced: written at the end, unless there was none). A key never changed after
// the moment is walked as it is, which is as it was.
#include "engine/exports/table_at_moment.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <optional>

#include "engine/storage/write_scope.h"

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

bool ChangesInWindow(const TableItems& items, const PointInTimeHistory& history, int64_t from_ms,
                     int64_t to_ms, std::vector<WindowChange>& changes, std::string& failure) {
  struct Seen {
    std::optional<StoredItem> at_from;
    std::optional<StoredItem> at_to;
    bool to_known = false;  // a change at or after to_ms replaced at_to
    int64_t write_ms = 0;
  };
  absl::flat_hash_map<std::string, Seen> seen;
  const TableItems* tables[] = {&items};
  ReadScope scope(tables);
  if (history.earliest_ms() > from_ms) {
    failure = "the point-in-time history no longer reaches back to the export's from time";
    return false;
  }
  // Oldest first: a key's first change in the window replaced its state at from_ms; its first
  // change at or after to_ms replaced its state at to_ms.
  history.ChangesAfter(from_ms - 1, 0, [&](int64_t ms, const PointInTimeHistory::Undo& undo) {
    if (ms < to_ms) {
      auto [it, added] = seen.try_emplace(undo.key);
      if (added) it->second.at_from = undo.before;
      it->second.write_ms = ms;
    } else if (auto it = seen.find(undo.key); it != seen.end() && !it->second.to_known) {
      it->second.at_to = undo.before;
      it->second.to_known = true;
    }
  });
  changes.reserve(seen.size());
  for (auto& [key, item] : seen) {
    if (!item.to_known) item.at_to = items.Read(scope, key);
    if (!item.at_from && !item.at_to) continue;
    changes.push_back({key, std::move(item.at_from), std::move(item.at_to), item.write_ms});
  }
  std::sort(changes.begin(), changes.end(),
            [](const WindowChange& a, const WindowChange& b) { return a.key < b.key; });
  return true;
}

}  // namespace ddbd
