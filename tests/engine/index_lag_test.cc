// Global secondary indexes that lag behind their table (--gsi-lag-ms, engine/storage/index_lag.h):
// TableItems with one index per slot, each item's entry keyed by its blob, on a manual clock.
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/table_items.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

// Every item has an entry in each of `slots` indexes, keyed by its blob then its key.
void IndexByBlob(TableItems& items, size_t slots) {
  items.SetIndexes(slots, [slots](std::string_view, std::string_view blob, uint32_t, WholeItems,
                                  IndexEntries& entries) {
    entries.clear();
    for (size_t slot = 0; slot < slots; ++slot) {
      entries.push_back({slot, std::string(blob), StoredItem{std::string(blob), 1}});
    }
  });
}

void Put(TableItems& items, const std::string& key, const std::string& blob) {
  const StoredItem stored{blob, 1};
  // Entries computed by SetIndexes' function: the write passes none of its own, with a generation
  // that never matches (testing::PutInto passes the current one, which means "no entries").
  WriteScope scope(items);
  REQUIRE(items
              .Commit(scope, key,
                      [&](const TableItems::Current*) {
                        return Result<TableItems::Write>(TableItems::Write{
                            TableItems::Write::Kind::kPut, &stored, nullptr, ~uint64_t{0}, false});
                      })
              .ok());
}

// The index's entry keys, as a Query or Scan of it reads them (catching up first).
std::vector<std::string> Entries(TableItems& items, size_t slot) {
  items.CatchUpIndexes();
  std::vector<std::string> keys;
  items.WalkIndex(slot, TableItems::KeyRange{}, true,
                  [&](std::string_view key, std::string_view, uint32_t) {
                    keys.emplace_back(key);
                    return true;
                  });
  return keys;
}

TEST_CASE("A lagging index takes each change after its delay, in order, and holds while paused") {
  ManualClock clock;
  auto paused = std::make_shared<std::atomic<bool>>(false);
  TableItems items;
  IndexByBlob(items, 1);
  items.LagGlobalIndexes({100, 100, &clock, paused});

  Put(items, "k", "a");
  CHECK(Entries(items, 0).empty());  // not yet
  CHECK(items.PendingIndexChanges() == std::vector<uint64_t>{1});
  clock.AdvanceMs(100);
  CHECK(Entries(items, 0) == std::vector<std::string>{"a"});
  CHECK(items.PendingIndexChanges().empty());
  CHECK(items.index_item_count(0) == 1);

  // A change of the entry: the old one stays until the change is due, then goes.
  Put(items, "k", "b");
  clock.AdvanceMs(50);
  CHECK(Entries(items, 0) == std::vector<std::string>{"a"});
  testing::EraseFrom(items, "k");
  clock.AdvanceMs(50);
  CHECK(Entries(items, 0) == std::vector<std::string>{"b"});  // the put is due, the erase not
  clock.AdvanceMs(50);
  CHECK(Entries(items, 0).empty());
  CHECK(items.index_size_bytes(0) == 0);

  // Paused, nothing goes through, however late; resumed, everything due does.
  paused->store(true);
  Put(items, "p", "c");
  clock.AdvanceMs(1000);
  CHECK(Entries(items, 0).empty());
  CHECK(items.PendingIndexChanges() == std::vector<uint64_t>{1});
  paused->store(false);
  CHECK(Entries(items, 0) == std::vector<std::string>{"c"});
  // The table itself never lags.
  CHECK(items.Get("p").has_value());
}

TEST_CASE("A random delay never lets a later change of the index overtake an earlier one") {
  ManualClock clock;
  TableItems items;
  IndexByBlob(items, 1);
  items.LagGlobalIndexes({0, 1000, &clock, nullptr});
  for (int i = 0; i < 200; ++i) Put(items, "k", "v" + std::to_string(1000 + i));
  // One item: no entry until the first change is due, then one, never two, never none between
  // two states (an entry's removal and its successor's insertion are due together).
  bool arrived = false;
  for (int step = 0; step < 20; ++step) {
    clock.AdvanceMs(60);
    const size_t seen = Entries(items, 0).size();
    REQUIRE(seen == (arrived ? 1u : seen));
    REQUIRE(seen <= 1);
    arrived = arrived || seen == 1;
  }
  clock.AdvanceMs(1000);
  CHECK(Entries(items, 0) == std::vector<std::string>{"v1199"});  // the last write wins
}

TEST_CASE("Changing the indexes applies every queued change first, a table's end frees the rest") {
  ManualClock clock;
  TableItems items;
  IndexByBlob(items, 1);
  items.LagGlobalIndexes({1000, 1000, &clock, nullptr});
  Put(items, "k1", "a");
  Put(items, "k2", "b");
  // A new index (slot 1) is backfilled at once, and the pending changes of slot 0 are applied.
  items.ChangeIndexes(
      {1}, {},
      [](std::string_view, std::string_view blob, uint32_t, WholeItems, IndexEntries& entries) {
        entries = {{0, std::string(blob), StoredItem{std::string(blob), 1}},
                   {1, std::string(blob), StoredItem{std::string(blob), 1}}};
      },
      nullptr, [] {});
  CHECK(Entries(items, 0) == std::vector<std::string>{"a", "b"});
  CHECK(Entries(items, 1) == std::vector<std::string>{"a", "b"});
  Put(items, "k3", "c");  // left queued: freed with the table (ASan checks)
  CHECK(items.PendingIndexChanges() == std::vector<uint64_t>{1, 1});
}

}  // namespace
}  // namespace ddbd
