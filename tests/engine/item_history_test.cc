// Eventually consistent reads of the past (--stale-reads-ms, engine/storage/item_history.h):
// TableItems keeping its recent states on a manual clock, read as of a moment, point and walk,
// table and local index.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/table_items.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

void ItemHistoryPut(TableItems& items, const std::string& key, const std::string& blob) {
  const StoredItem stored{blob, static_cast<uint32_t>(blob.size())};
  // A generation that never matches: Commit computes the entries with SetIndexes' function
  // (testing::PutInto passes the current one, which means "no entries").
  WriteScope scope(items);
  REQUIRE(items
              .Commit(scope, key,
                      [&](const TableItems::Current*) {
                        return Result<TableItems::Write>(TableItems::Write{
                            TableItems::Write::Kind::kPut, &stored, nullptr, ~uint64_t{0}, false});
                      })
              .ok());
}

std::string GetAt(const TableItems& items, const std::string& key, int64_t moment_ms) {
  auto item = items.Get(key, moment_ms);
  return item ? item->blob : "-";
}

// "key=blob" of each item or entry a walk visits, in its order.
std::vector<std::string> WalkAt(const TableItems& items, int64_t moment_ms, bool forward = true,
                                const KeyRange& range = {}, int index = -1) {
  std::vector<std::string> seen;
  auto visit = [&](std::string_view key, std::string_view blob, uint32_t) {
    seen.push_back(std::string(key) + "=" + std::string(blob));
    return true;
  };
  if (index < 0) {
    items.Walk(range, forward, visit, moment_ms);
  } else {
    items.WalkIndex(static_cast<size_t>(index), range, forward, visit, moment_ms);
  }
  return seen;
}

using Walked = std::vector<std::string>;

TEST_CASE("Reads as of a moment see each item as it was then, the latest, as it is") {
  ManualClock clock;
  TableItems items;
  items.KeepRecentStates({.min_ms = 100, .max_ms = 100, .clock = &clock});
  CHECK(items.ReadMoment(true) == kLatestState);
  CHECK(items.ReadMoment(false) == clock.NowMs() - 100);

  const int64_t start = clock.NowMs();
  ItemHistoryPut(items, "b", "b1");
  ItemHistoryPut(items, "d", "d1");
  clock.AdvanceMs(10);
  const int64_t first = clock.NowMs();
  ItemHistoryPut(items, "b", "b2");  // modified
  testing::EraseFrom(items, "d");    // deleted
  ItemHistoryPut(items, "a", "a1");  // inserted
  ItemHistoryPut(items, "c", "c1");
  clock.AdvanceMs(10);
  ItemHistoryPut(items, "b", "b3");

  CHECK(GetAt(items, "b", kLatestState) == "b3");
  CHECK(GetAt(items, "b", first) == "b2");
  CHECK(GetAt(items, "b", first - 1) == "b1");
  CHECK(GetAt(items, "d", first - 1) == "d1");
  CHECK(GetAt(items, "d", first) == "-");
  CHECK(GetAt(items, "a", first - 1) == "-");
  CHECK(GetAt(items, "b", start - 1) == "-");  // before the first write: nothing

  CHECK(WalkAt(items, kLatestState) == Walked{"a=a1", "b=b3", "c=c1"});
  CHECK(WalkAt(items, first - 1) == Walked{"b=b1", "d=d1"});
  CHECK(WalkAt(items, first - 1, false) == Walked{"d=d1", "b=b1"});
  CHECK(WalkAt(items, first) == Walked{"a=a1", "b=b2", "c=c1"});

  // A range, exclusive at its lower end, and a walk stopped by its visit.
  KeyRange range{"b", false, "d", true, true, ""};
  CHECK(WalkAt(items, first - 1, true, range) == Walked{"d=d1"});
  CHECK(WalkAt(items, first - 1, false, range) == Walked{"d=d1"});
  int visits = 0;
  items.Walk(
      {}, true, [&](std::string_view, std::string_view, uint32_t) { return ++visits < 1; },
      first - 1);
  CHECK(visits == 1);

  // Past the longest delay the history lets go of what no read can reach.
  clock.AdvanceMs(1000);
  ItemHistoryPut(items, "e", "e1");
  CHECK(GetAt(items, "b", first - 1) == "b3");
  CHECK(WalkAt(items, clock.NowMs() - 100) == Walked{"a=a1", "b=b3", "c=c1"});
}

TEST_CASE("A local index read as of a moment shows each item's entry as it was then") {
  ManualClock clock;
  TableItems items;
  // One local index (slot 0), keyed by the blob's first letter, then the table key; items whose
  // blob starts with 'x' have no entry.
  items.SetIndexes(
      1, [](std::string_view, std::string_view blob, uint32_t, WholeItems, IndexEntries& entries) {
        entries.clear();
        if (!blob.empty() && blob[0] != 'x') {
          entries.push_back({0, std::string(1, blob[0]) + "/" + std::string(blob.substr(2)),
                             StoredItem{std::string(blob), 1}});
        }
      });
  items.TrackItemCollections(int64_t{1} << 40, {0});
  items.KeepRecentStates({.min_ms = 50, .max_ms = 50, .clock = &clock});
  ItemHistoryPut(items, "k1", "m/k1");
  ItemHistoryPut(items, "k2", "n/k2");
  ItemHistoryPut(items, "k3", "p/k3");
  clock.AdvanceMs(5);
  const int64_t before = clock.NowMs() - 1;
  ItemHistoryPut(items, "k1", "q/k1");  // the entry moves
  ItemHistoryPut(items, "k2", "x/k2");  // the entry goes
  testing::EraseFrom(items, "k3");
  ItemHistoryPut(items, "k4", "a/k4");  // a new entry

  CHECK(WalkAt(items, kLatestState, true, {}, 0) == Walked{"a/k4=a/k4", "q/k1=q/k1"});
  CHECK(WalkAt(items, before, true, {}, 0) == Walked{"m/k1=m/k1", "n/k2=n/k2", "p/k3=p/k3"});
  CHECK(WalkAt(items, before, false, {}, 0) == Walked{"p/k3=p/k3", "n/k2=n/k2", "m/k1=m/k1"});
  std::string_view blob;
  uint32_t size = 0;
  items.WhileHeld([&] {
    CHECK(items.FindDuringWalk("k3", &blob, &size, before));
    CHECK(blob == "p/k3");
    CHECK_FALSE(items.FindDuringWalk("k3", &blob, &size));
  });
}

TEST_CASE("Without recent states every read sees the latest, whatever the moment") {
  ManualClock clock;
  TableItems items;
  ItemHistoryPut(items, "a", "a1");
  clock.AdvanceMs(10);
  ItemHistoryPut(items, "a", "a2");
  CHECK(items.ReadMoment(false) == kLatestState);
  CHECK(GetAt(items, "a", clock.NowMs() - 5) == "a2");
  CHECK(WalkAt(items, clock.NowMs() - 5) == Walked{"a=a2"});
}

TEST_CASE("The history's byte cap drops the oldest changes first") {
  ManualClock clock;
  ItemHistory history({.min_ms = 1000, .max_ms = 1000, .clock = &clock, .max_bytes = 600});
  Garbage garbage;
  for (int i = 0; i < 20; ++i) {
    history.Record("k" + std::to_string(i), nullptr, garbage);
    clock.AdvanceMs(1);
  }
  CHECK(history.bytes() <= 600);
  CHECK(history.changes() < 20);
  CHECK(history.keys().size() == history.changes());
  CHECK_FALSE(history.StateAt("k0", 0).changed);  // dropped: it reads as the latest
  CHECK(history.StateAt("k19", 0).changed);
}

}  // namespace
}  // namespace ddbd
