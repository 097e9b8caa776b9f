#include "engine/storage/table_items.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <climits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/clock.h"
#include "engine/model/attribute_value.h"
#include "engine/model/key_codec.h"
#include "engine/storage/prefix_sort.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

// One write through one of TableItems' three paths, and the same change to `model`. kApply is a
// conditional write: a put over nothing or an even-numbered blob, else a delete.
enum WriteKind { kPut, kErase, kApply };
void TableItemsWriteAtRandom(TableItems& items, std::map<std::string, std::string>& model,
                             const std::string& key, const std::string& blob, WriteKind kind) {
  switch (kind) {
    case kPut:
      REQUIRE(testing::PutInto(items, key, {blob, 1}).ok());
      model[key] = blob;
      return;
    case kErase:
      testing::EraseFrom(items, key);
      model.erase(key);
      return;
    case kApply: {
      const StoredItem stored{blob, 1};
      WriteScope scope(items);
      auto result = items.Commit(scope, key, [&](const TableItems::Current* current) {
        TableItems::Write write;
        const bool keep = current == nullptr || (current->blob.back() - '0') % 2 == 0;
        write.kind = keep ? TableItems::Write::Kind::kPut : TableItems::Write::Kind::kDelete;
        write.item = &stored;
        write.generation = items.index_generation();
        return Result<TableItems::Write>(write);
      });
      REQUIRE(result.ok());
      auto it = model.find(key);
      if (it == model.end() || (it->second.back() - '0') % 2 == 0) {
        model[key] = blob;
      } else {
        model.erase(it);
      }
    }
  }
}

// The keys of `model` a walk over `range` visits, in its order, stopped after `stop_after`.
std::vector<std::string> ExpectedWalk(const std::map<std::string, std::string>& model,
                                      const TableItems::KeyRange& range, bool forward,
                                      size_t stop_after) {
  std::vector<std::string> expected;
  for (const auto& [key, blob] : model) {
    if (range.lower_inclusive ? key < range.lower : key <= range.lower) continue;
    if (range.has_upper && (range.upper_inclusive ? key > range.upper : key >= range.upper)) {
      continue;
    }
    expected.push_back(key);
  }
  if (!forward) std::reverse(expected.begin(), expected.end());
  if (expected.size() > stop_after) expected.resize(stop_after);
  return expected;
}

TEST_CASE("TableItems puts, replaces, gets and erases with size accounting") {
  TableItems items;
  CHECK_FALSE(testing::PutInto(items, "k1", {"blob-one", 10}).value().has_value());
  CHECK_FALSE(testing::PutInto(items, "k0", {"zero", 3}).value().has_value());
  CHECK(items.item_count() == 2);
  CHECK(items.size_bytes() == 13);
  auto replaced = testing::PutInto(items, "k1", {"blob-two", 7}).value();
  REQUIRE(replaced.has_value());
  CHECK(replaced->blob == "blob-one");
  CHECK(replaced->size_bytes == 10);
  CHECK(items.Get("k1")->blob == "blob-two");
  CHECK(items.size_bytes() == 10);
  CHECK(testing::EraseFrom(items, "k0")->blob == "zero");
  CHECK_FALSE(testing::EraseFrom(items, "k0").has_value());
  CHECK_FALSE(items.Get("k0").has_value());
  CHECK(items.item_count() == 1);
  CHECK(items.size_bytes() == 7);
  // Keys are bytes: embedded NULs and empty blobs are fine.
  const std::string nul_key("a\0b", 3);
  REQUIRE(testing::PutInto(items, nul_key, {"", 0}).ok());
  CHECK(items.Get(nul_key)->blob.empty());
  CHECK_FALSE(items.Get("a").has_value());
}

TEST_CASE("TableItems stays consistent under concurrent writers and readers") {
  TableItems items;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&items, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string key = "key" + std::to_string(i % 500);
        if (t % 2 == 0) {
          (void)testing::PutInto(items, key, {std::string(static_cast<size_t>(i % 50), 'x'), 1});
        } else {
          items.Get(key);
          if (i % 7 == 0) testing::EraseFrom(items, key);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(items.item_count() <= 500);
  CHECK(items.size_bytes() == items.item_count());  // every stored item has size 1
}

// Point reads use a hash of the keys and walks the ordered tree; every write path must keep the
// two the same. Checked against a std::map after a random mix of writes.
TEST_CASE("TableItems point reads and walks agree with a model after random writes") {
  TableItems items;
  std::map<std::string, std::string> model;
  std::mt19937 random(7);
  for (int step = 0; step < 20000; ++step) {
    // Keys longer than 8 bytes share prefixes, so the tree compares whole keys too.
    const std::string key = "partitio" + std::to_string(random() % 300);
    const std::string blob = "v" + std::to_string(step);
    const uint64_t pick = random() % 4;
    TableItemsWriteAtRandom(items, model, key, blob,
                            pick == 0   ? kPut
                            : pick == 1 ? kErase
                                        : kApply);
  }
  CHECK(items.item_count() == static_cast<int64_t>(model.size()));
  for (int k = 0; k < 300; ++k) {
    const std::string key = "partitio" + std::to_string(k);
    auto stored = items.Get(key);
    auto expected = model.find(key);
    REQUIRE(stored.has_value() == (expected != model.end()));
    if (stored) CHECK(stored->blob == expected->second);
  }
  std::vector<std::pair<std::string, std::string>> walked;
  items.Walk({}, true, [&](std::string_view key, std::string_view blob, uint32_t) {
    walked.emplace_back(key, blob);
    return true;
  });
  CHECK(walked == std::vector<std::pair<std::string, std::string>>(model.begin(), model.end()));
}

// Walks over random byte keys (short ones too, whose 8-byte prefixes are zero-padded), with every
// kind of bound, both ways, stopped early or not, after writes and erases.
TEST_CASE("TableItems walks ranges in key order, both ways, as a model says") {
  TableItems items;
  std::map<std::string, std::string> model;
  std::mt19937_64 random(11);
  // Either all random bytes, or keys in groups sharing their first 8 bytes (as the items of one
  // partition share its hash), so walks start inside and between groups.
  const bool grouped = GENERATE(false, true);
  std::vector<std::string> groups(20);
  for (std::string& group : groups) {
    group.resize(8);
    for (char& byte : group) byte = static_cast<char>(random());
  }
  auto random_key = [&] {
    if (grouped) {
      std::string key = groups[random() % groups.size()];
      key.resize(8 + random() % 4);
      for (size_t i = 8; i < key.size(); ++i) key[i] = static_cast<char>(random() % 4);
      return key;
    }
    std::string key(8 + random() % 8, '\0');
    for (char& byte : key) byte = static_cast<char>(random());
    if (random() % 4 == 0) key.resize(random() % 8);  // short keys too (zero-padded prefixes)
    return key;
  };
  std::vector<std::string> keys;
  for (int i = 0; i < 6000; ++i) {
    keys.push_back(random_key());
    const std::string blob = "v" + std::to_string(i);
    REQUIRE(testing::PutInto(items, keys.back(), {blob, 1}).ok());
    model[keys.back()] = blob;
    if (i % 3 == 0) {  // some erases and rewrites, through both write paths
      const std::string& victim = keys[random() % keys.size()];
      testing::EraseFrom(items, victim);
      model.erase(victim);
    }
  }
  REQUIRE(items.item_count() == static_cast<int64_t>(model.size()));
  for (int trial = 0; trial < 300; ++trial) {
    TableItems::KeyRange range;
    range.lower = trial == 0 ? std::string() : random_key();
    range.lower_inclusive = random() % 2 == 0;
    range.has_upper = trial != 0 && random() % 5 != 0;
    range.upper = range.has_upper ? random_key() : std::string();
    range.upper_inclusive = random() % 2 == 0;
    const bool forward = random() % 2 == 0;
    const size_t stop_after = trial % 3 == 0 ? 1 + random() % 50 : SIZE_MAX;
    const std::vector<std::string> expected = ExpectedWalk(model, range, forward, stop_after);
    std::vector<std::string> walked;
    items.Walk(range, forward, [&](std::string_view key, std::string_view, uint32_t) {
      walked.emplace_back(key);
      return walked.size() < stop_after;
    });
    INFO("trial " << trial);
    CHECK(walked == expected);
  }
  for (const auto& [key, blob] : model) REQUIRE(items.Get(key)->blob == blob);
}

// Tables with a sort key keep their items by partition. Their walks must still give DynamoDB's
// order over all partitions (Scan, whatever its bounds: segment hashes, start keys, any bytes)
// and over one partition found by hash (Query), as one ordered map of the key bytes says.
TEST_CASE("TableItems kept by partition walk and read as a model says") {
  const AttributeType partition_type = GENERATE(AttributeType::kS, AttributeType::kN);
  const AttributeType sort_type = GENERATE(AttributeType::kS, AttributeType::kN);
  // With a hash of keys for point reads (a table), or without (an index's entries).
  const bool hashed_keys = GENERATE(true, false);
  auto value = [](AttributeType type, int n) {
    return type == AttributeType::kN ? AttributeValue::Number(std::to_string(n - 20))
                                     : AttributeValue::String("v" + std::to_string(n));
  };
  TableItems items;
  items.UsePartitions(
      [&](std::string_view key) { return PartitionPrefixLength(key, partition_type); },
      hashed_keys);
  std::mt19937_64 random(static_cast<uint64_t>(partition_type) * 10 +
                         static_cast<uint64_t>(sort_type));
  // Partitions of every size: 0..29, where partition n can hold up to 3n + 1 sort keys.
  auto partition_bytes = [&](int n) { return EncodeTableKey(value(partition_type, n), nullptr); };
  auto item_key = [&](int n, int sort) {
    const AttributeValue sort_value = value(sort_type, sort);
    return EncodeTableKey(value(partition_type, n), &sort_value);
  };
  auto random_item_key = [&] {
    const int n = static_cast<int>(random() % 30);
    return item_key(n, static_cast<int>(random() % static_cast<uint64_t>(3 * n + 1)));
  };
  std::map<std::string, std::string> model;
  for (int step = 0; step < 12000; ++step) {
    const std::string key = random_item_key();
    const std::string blob = "b" + std::to_string(step);
    // Erases empty whole partitions now and then, which then come back.
    const uint64_t pick = random() % 5;
    TableItemsWriteAtRandom(items, model, key, blob, pick < 2 ? kPut : pick == 2 ? kErase : kApply);
  }
  REQUIRE(items.item_count() == static_cast<int64_t>(model.size()));
  for (int n = 0; n < 30; ++n) {
    for (int sort = 0; sort <= 3 * n; ++sort) {
      const std::string key = item_key(n, sort);
      auto stored = items.Get(key);
      auto expected = model.find(key);
      REQUIRE(stored.has_value() == (expected != model.end()));
      if (stored) CHECK(stored->blob == expected->second);
    }
  }
  auto walk = [&](const TableItems::KeyRange& range, bool forward, size_t stop_after) {
    std::vector<std::string> walked;
    items.Walk(range, forward, [&](std::string_view key, std::string_view blob, uint32_t) {
      CHECK(model.at(std::string(key)) == blob);
      walked.emplace_back(key);
      return walked.size() < stop_after;
    });
    return walked;
  };
  auto expect = [&](const TableItems::KeyRange& range, bool forward, size_t stop_after) {
    return ExpectedWalk(model, range, forward, stop_after);
  };
  // Bounds of every kind a read makes: none, segment boundaries (8 hash bytes), a partition's
  // bytes, item keys stored or not, the key just past a prefix, and arbitrary bytes.
  auto random_bound = [&]() -> std::string {
    switch (random() % 6) {
      case 0:
        return std::string();
      case 1: {
        std::string hash = partition_bytes(static_cast<int>(random() % 30)).substr(0, 8);
        if (random() % 2 == 0) hash.back() = static_cast<char>(random());
        return hash;
      }
      case 2:
        return partition_bytes(static_cast<int>(random() % 32));
      case 3:
        return random_item_key();
      case 4: {
        std::string key = random_item_key();
        key.back() = static_cast<char>(static_cast<uint8_t>(key.back()) + 1);
        return key;
      }
      default: {
        std::string bytes(random() % 12, '\0');
        for (char& byte : bytes) byte = static_cast<char>(random());
        return bytes;
      }
    }
  };
  for (int trial = 0; trial < 400; ++trial) {
    TableItems::KeyRange range;
    range.lower = random_bound();
    range.lower_inclusive = random() % 2 == 0;
    range.has_upper = random() % 4 != 0;
    range.upper = range.has_upper ? random_bound() : std::string();
    range.upper_inclusive = random() % 2 == 0;
    const bool forward = random() % 2 == 0;
    const size_t stop_after = trial % 3 == 0 ? 1 + random() % 20 : SIZE_MAX;
    INFO("trial " << trial << (forward ? " forward" : " backward"));
    CHECK(walk(range, forward, stop_after) == expect(range, forward, stop_after));
  }
  // Query ranges: within one partition, found by hash, bounded as read_operations bounds them.
  for (int trial = 0; trial < 400; ++trial) {
    const int n = static_cast<int>(random() % 32);  // 30 and 31 never hold items
    TableItems::KeyRange range;
    range.partition = partition_bytes(n);
    std::string end = range.partition;
    end.back() = static_cast<char>(static_cast<uint8_t>(end.back()) + 1);
    const uint64_t sorts = static_cast<uint64_t>(3 * n + 1);
    auto sort_key = [&] { return item_key(n, static_cast<int>(random() % (sorts + 2))); };
    // Mostly bounds inside the partition; now and then any bound, of which the walk must keep
    // to the partition's part.
    auto bound = [&](const std::string& edge) {
      const uint64_t pick = random() % 8;
      return pick < 2 ? edge : pick < 7 ? sort_key() : random_bound();
    };
    range.lower = bound(range.partition);
    range.lower_inclusive = random() % 2 == 0;
    range.has_upper = true;
    range.upper = bound(end);
    range.upper_inclusive = random() % 2 == 0;
    const bool forward = random() % 2 == 0;
    const size_t stop_after = trial % 3 == 0 ? 1 + random() % 5 : SIZE_MAX;
    std::vector<std::string> expected = expect(range, forward, SIZE_MAX);
    std::erase_if(expected,
                  [&](const std::string& key) { return !key.starts_with(range.partition); });
    if (expected.size() > stop_after) expected.resize(stop_after);
    INFO("query trial " << trial << (forward ? " forward" : " backward"));
    CHECK(walk(range, forward, stop_after) == expected);
  }
  CHECK(walk({}, true, SIZE_MAX) == expect({}, true, SIZE_MAX));
  CHECK(walk({}, false, SIZE_MAX) == expect({}, false, SIZE_MAX));
}

TEST_CASE("Indexes filled after a replay hold up reads of an index and writes, not item reads") {
  // A store fills a replayed table's indexes on a thread of its own while the server answers
  // (Store::Open), under the read lock. Here the build stops at its first item until let go:
  // meanwhile an item read answers, and a walk of the index, its count and a write wait.
  std::atomic<bool> hold = true;
  std::atomic<int> computed = 0;
  TableItems items;
  items.SetIndexes(1, [&](std::string_view key, std::string_view blob, uint32_t size, WholeItems,
                          IndexEntries& entries) {
    if (computed.fetch_add(1) == 0) {
      while (hold.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    entries = {{0, std::string(blob) + std::string(key), StoredItem{std::string(blob), size}}};
  });
  items.DeferIndexes();
  for (int i = 0; i < 100; ++i) items.Load("k" + std::to_string(i), "b" + std::to_string(i % 7), 2);
  REQUIRE(items.EndDeferredOrder());
  std::thread build([&] { items.BuildDeferredIndexes(); });
  while (computed.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(items.Get("k5").has_value());
  std::atomic<bool> walked = false;
  std::atomic<bool> counted = false;
  std::atomic<bool> written = false;
  std::atomic<int64_t> count = -1;
  std::thread walk([&] {
    items.WalkIndex(0, TableItems::KeyRange{}, true,
                    [](std::string_view, std::string_view, uint32_t) { return true; });
    walked = true;
  });
  std::thread counter([&] {
    count = items.index_item_count(0);
    counted = true;
  });
  std::thread write([&] {
    const StoredItem stored{"b9", 2};
    WriteScope scope(items);
    // No entries of its own, for a generation that never matches: the table computes them.
    const auto committed = items.Commit(scope, "k100", [&](const TableItems::Current*) {
      return Result<TableItems::Write>(
          TableItems::Write{TableItems::Write::Kind::kPut, &stored, nullptr, ~uint64_t{0}, false});
    });
    CHECK(committed.ok());
    written = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(walked.load());
  CHECK_FALSE(counted.load());
  CHECK_FALSE(written.load());
  hold = false;
  for (std::thread* thread : {&build, &walk, &counter, &write}) thread->join();
  CHECK(count.load() >= 100);  // the build's, and the write's if it came first
  CHECK(items.index_item_count(0) == 101);
  CHECK_FALSE(items.indexes_deferred());
}

TEST_CASE(
    "A replay's trees are built after it while item reads and Queries answer, and writes and "
    "walks wait") {
  // Store::Open marks a replayed table (StartDeferredBuild) before the server answers and builds
  // its trees on a thread of its own after (EndDeferredOrder): meanwhile a point read answers
  // from the hash, and a walk (which needs the order) and a write (which would miss the trees)
  // wait until they are in place.
  TableItems items;
  items.DeferIndexes();
  for (int i = 0; i < 100; ++i) items.Load("k" + std::to_string(100 + i), "b", 1);
  items.StartDeferredBuild();
  CHECK(items.Get("k105").has_value());
  auto walk = [&] {
    std::vector<std::string> keys;
    items.Walk(TableItems::KeyRange{}, true, [&](std::string_view key, std::string_view, uint32_t) {
      keys.emplace_back(key);
      return true;
    });
    return keys;
  };
  std::atomic<bool> walked = false;
  std::atomic<bool> written = false;
  std::vector<std::string> walked_keys;
  std::thread walker([&] {
    walked_keys = walk();
    walked = true;
  });
  std::thread writer([&] {
    CHECK(testing::PutInto(items, "k000", {"b", 1}).ok());
    written = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(walked.load());
  CHECK_FALSE(written.load());
  CHECK(items.Get("k199").has_value());
  // A walk of one partition (a Query: here the whole key, as in a table without a sort key)
  // answers from the hash, within its bounds, both ways.
  auto query = [&](const std::string& key, std::string lower, bool forward) {
    std::vector<std::string> keys;
    TableItems::KeyRange range{std::move(lower), true, key + "~", false, true, key};
    items.Walk(range, forward, [&](std::string_view found, std::string_view, uint32_t) {
      keys.emplace_back(found);
      return true;
    });
    return keys;
  };
  CHECK(query("k150", "k150", true) == std::vector<std::string>{"k150"});
  CHECK(query("k150", "k150", false) == std::vector<std::string>{"k150"});
  CHECK(query("k150", "k151", true).empty());  // past it (an ExclusiveStartKey)
  CHECK(query("k099", "k099", true).empty());  // no such item
  CHECK_FALSE(walked.load());
  CHECK_FALSE(items.EndDeferredOrder());  // no indexes left to fill
  walker.join();
  writer.join();
  CHECK(std::is_sorted(walked_keys.begin(), walked_keys.end()));
  CHECK(walked_keys.size() >= 100);  // the write's key too, if it came first
  // The write went into the trees built: it is walked, first.
  const std::vector<std::string> keys = walk();
  REQUIRE(keys.size() == 101);
  CHECK(keys.front() == "k000");
  CHECK(std::is_sorted(keys.begin(), keys.end()));
}

TEST_CASE(
    "Indexes deferred through a replay (written by Load) are built as writes would leave them") {
  // Index 0 local (counted in item collections): every item, keyed by its blob. Index 1 global
  // and sparse: items whose blob ends in an even digit, keyed by the reversed key. Index 2 is
  // added half way (a backfill while live, nothing while deferred).
  auto entries_of = [](size_t slots) {
    return [slots](std::string_view key, std::string_view blob, uint32_t size, WholeItems,
                   IndexEntries& entries) {
      entries.clear();
      entries.push_back({0, std::string(blob) + std::string(key), {std::string(blob), size + 3}});
      if ((blob.back() - '0') % 2 == 0) {
        entries.push_back({1, std::string(key.rbegin(), key.rend()), {"k", 2}});
      }
      if (slots > 2) entries.push_back({2, std::string(key), {std::string(blob), size}});
    };
  };
  auto prefix = [](std::string_view) { return size_t{2}; };  // "pN" partitions
  // Kept by partitions, or in one tree (whose order a replay builds at the end), the replayed
  // puts given as blobs (Load) or as records (LoadRecords, as a checkpoint's images are).
  const bool partitioned = GENERATE(true, false);
  const bool as_records = GENERATE(false, true);
  CAPTURE(partitioned, as_records);
  auto setup = [&](TableItems& items) {
    if (partitioned) items.UsePartitions(prefix);
    items.SetIndexes(2, entries_of(2));
    items.TrackItemCollections(INT64_MAX, {0});
  };
  TableItems live;
  TableItems replayed;
  setup(live);
  setup(replayed);
  replayed.DeferIndexes();
  auto put = [](TableItems& items, const std::string& key, const std::string& blob) {
    const StoredItem stored{blob, static_cast<uint32_t>(blob.size())};
    WriteScope scope(items);
    // No entries of its own, for a generation that never matches: the table computes them.
    auto committed = items.Commit(scope, key, [&](const TableItems::Current*) {
      return Result<TableItems::Write>(
          TableItems::Write{TableItems::Write::Kind::kPut, &stored, nullptr, ~uint64_t{0}, false});
    });
    REQUIRE(committed.ok());
    return committed.value().change;
  };
  std::mt19937_64 random(7);
  for (int step = 0; step < 3000; ++step) {
    if (step == 1500) {
      for (TableItems* items : {&live, &replayed}) {
        items->ChangeIndexes({2}, {}, entries_of(3), nullptr, [] {});
      }
    }
    const std::string key =
        "p" + std::to_string(random() % 10) + "#" + std::to_string(random() % 40);
    // The replayed table is written as the store's replay writes it (Load).
    if (random() % 4 == 0) {
      testing::EraseFrom(live, key);
      replayed.Load(key, std::nullopt, 0);
      continue;
    }
    const std::string blob = "b" + std::to_string(random() % 1000);
    put(live, key, blob);
    if (as_records) {
      ItemRecord* record = ItemRecord::Create(key, blob, static_cast<uint32_t>(blob.size()));
      replayed.LoadRecords({&record, 1});
    } else {
      replayed.Load(key, blob, static_cast<uint32_t>(blob.size()));
    }
  }
  CHECK(replayed.item_count() == live.item_count());
  CHECK(replayed.size_bytes() == live.size_bytes());
  REQUIRE(live.index_item_count(0) > 0);
  CHECK(replayed.index_item_count(0) == 0);
  CHECK(replayed.indexes_deferred());
  replayed.BuildDeferredIndexes();
  CHECK_FALSE(replayed.indexes_deferred());

  auto entries = [](const TableItems& items, size_t slot) {
    std::vector<std::string> walked;
    items.WalkIndex(
        slot, TableItems::KeyRange{}, true,
        [&](std::string_view key, std::string_view blob, uint32_t size) {
          walked.push_back(std::string(key) + "=" + std::string(blob) + "/" + std::to_string(size));
          return true;
        });
    return walked;
  };
  auto items = [](const TableItems& table) {
    std::vector<std::string> walked;
    table.Walk(
        TableItems::KeyRange{}, true,
        [&](std::string_view key, std::string_view blob, uint32_t size) {
          walked.push_back(std::string(key) + "=" + std::string(blob) + "/" + std::to_string(size));
          return true;
        });
    return walked;
  };
  CHECK(items(replayed) == items(live));
  for (size_t slot = 0; slot < 3; ++slot) {
    CHECK(entries(replayed, slot) == entries(live, slot));
    CHECK(replayed.index_item_count(slot) == live.index_item_count(slot));
    CHECK(replayed.index_size_bytes(slot) == live.index_size_bytes(slot));
  }
  // Item collections counted again with their local entries; writes keep every index after.
  for (int n = 0; n < 10; ++n) {
    const std::string key = "p" + std::to_string(n) + "#new";
    CHECK(put(replayed, key, "b8").item_collection_bytes ==
          put(live, key, "b8").item_collection_bytes);
  }
  for (size_t slot = 0; slot < 3; ++slot) CHECK(entries(replayed, slot) == entries(live, slot));
  CHECK(items(replayed) == items(live));
}

TEST_CASE("Whole-item index entries read the item's current record through every change") {
  // One index of whole items (an ALL projection): keyed by the blob's first letter, then the
  // table key; sparse (no entry for a blob ending in 9). Items change, move in the index, leave
  // and come back, are deleted and written again equal; then the same with recent states kept
  // (--stale-reads-ms), then with the index lagging (--gsi-lag-ms, whole-item entries made
  // before become copies). Each index entry must read the table's current blob (under ASan, a
  // record freed under an entry fails here).
  const int mode = GENERATE(0, 1, 2);  // plain, recent states kept, lag started half way
  ManualClock clock;
  TableItems items;
  items.SetIndexes(1, [](std::string_view key, std::string_view blob, uint32_t size, WholeItems,
                         IndexEntries& entries) {
    entries.clear();
    if (blob.back() != '9') {
      entries.push_back(
          {0, std::string(1, blob[0]) + std::string(key), {std::string(blob), size}, true});
    }
  });
  if (mode == 1) items.KeepRecentStates({.min_ms = 10, .max_ms = 10, .clock = &clock});
  std::map<std::string, std::string> model;
  auto put = [&](const std::string& key, const std::string& blob) {
    const StoredItem stored{blob, static_cast<uint32_t>(blob.size())};
    WriteScope scope(items);
    REQUIRE(items
                .Commit(scope, key,
                        [&](const TableItems::Current*) {
                          return Result<TableItems::Write>(TableItems::Write{
                              TableItems::Write::Kind::kPut, &stored, nullptr, ~uint64_t{0}});
                        })
                .ok());
    model[key] = blob;
  };
  auto expected = [&] {
    std::map<std::string, std::string> by_entry_key;
    for (const auto& [key, blob] : model) {
      if (blob.back() != '9') by_entry_key[blob.substr(0, 1) + key] = blob;
    }
    std::vector<std::string> entries;
    for (const auto& [key, blob] : by_entry_key) entries.push_back(key + "=" + blob);
    return entries;
  };
  auto walked = [&] {
    items.CatchUpIndexes();
    std::vector<std::string> entries;
    items.WalkIndex(0, TableItems::KeyRange{}, true,
                    [&](std::string_view key, std::string_view blob, uint32_t size) {
                      CHECK(size == blob.size());
                      entries.push_back(std::string(key) + "=" + std::string(blob));
                      return true;
                    });
    return entries;
  };
  std::mt19937_64 random(11);
  for (int step = 0; step < 4000; ++step) {
    if (mode == 2 && step == 2000) {
      items.LagGlobalIndexes({5, 5, &clock, nullptr});
      CHECK(walked() == expected());
    }
    clock.AdvanceMs(1);
    const std::string key = "k" + std::to_string(random() % 60);
    const uint64_t pick = random() % 6;
    if (pick == 0) {
      testing::EraseFrom(items, key);
      model.erase(key);
    } else if (pick == 1 && model.count(key) != 0) {
      put(key, model[key]);  // equal: no new record
    } else {
      put(key,
          std::string(1, static_cast<char>('a' + random() % 3)) + std::to_string(random() % 100));
    }
    if (step % 97 == 0 && (mode != 2 || step < 2000)) REQUIRE(walked() == expected());
    if (mode == 2 && step > 2000) {
      // Lagging: entries of changes not yet due are read as they were (copies); each still
      // starts its key with its blob's letter.
      items.WalkIndex(0, TableItems::KeyRange{}, true,
                      [&](std::string_view entry_key, std::string_view blob, uint32_t) {
                        CHECK(entry_key[0] == blob[0]);
                        return true;
                      });
    }
  }
  clock.AdvanceMs(10);
  CHECK(walked() == expected());
  CHECK(items.index_item_count(0) == static_cast<int64_t>(expected().size()));
}

// The deferred trees' sort (TableRecords::DeferOrder): the order std::sort gives, whether the
// prefixes spread (a table's hashed keys) or not (top bits all zero, three values, ties below
// the radix passes' bits).
TEST_CASE("Slots sorted by prefix come out in std::sort's order") {
  struct Slot {
    uint64_t prefix;
    uint32_t rest;  // what a key's bytes after the prefix decide
  };
  auto order = [](const Slot& a, const Slot& b) {
    return a.prefix != b.prefix ? a.prefix < b.prefix : a.rest < b.rest;
  };
  std::mt19937_64 random(20261203);
  const auto spread = GENERATE(0, 1, 2, 3);
  const size_t count = GENERATE(size_t{100}, size_t{65535}, size_t{65536}, size_t{200000});
  std::vector<Slot> slots;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t bits = random();
    const uint64_t prefix = spread == 0   ? bits                           // spread
                            : spread == 1 ? bits >> 20                     // top 20 bits zero
                            : spread == 2 ? (bits % 3) << 62               // three values
                                          : bits & 0xFFF0'0000'0000'0000;  // ties below bit 52
    slots.push_back({prefix, static_cast<uint32_t>(i * 2654435761u)});
  }
  std::vector<Slot> expected = slots;
  std::sort(expected.begin(), expected.end(), order);
  SortByPrefix(slots, order);
  INFO("spread " << spread << ", " << count << " slots");
  REQUIRE(slots.size() == expected.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    REQUIRE(slots[i].prefix == expected[i].prefix);
    REQUIRE(slots[i].rest == expected[i].rest);
  }
}

}  // namespace
}  // namespace ddbd
