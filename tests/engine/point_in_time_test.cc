// Point-in-time recovery's restores (engine/backups/point_in_time.cc): after random puts, updates,
// deletes and transactions over time, a restore to any moment in the window holds exactly the
// items the table held then; the history's byte bound moves the earliest restorable moment up; and
// the refusals come in DynamoDB's order.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

CreateTableArgs PointInTimeTable(const std::string& name) {
  CreateTableArgs args;
  args.table_name = name;
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  return args;
}

// Every item of `table` as pk -> v.
std::map<std::string, std::string> Contents(Engine& engine, const std::string& table) {
  ScanArgs scan;
  scan.table_name = table;
  std::map<std::string, std::string> contents;
  auto page = engine.Scan(scan);
  REQUIRE(page.ok());
  for (const std::string_view blob : page.value().item_blobs) {
    const Item item = DecodeItem(blob);
    contents[FindAttribute(item, "pk")->scalar] = FindAttribute(item, "v")->scalar;
  }
  return contents;
}

EngineOptions NoLag() {
  EngineOptions options;
  options.pitr_lag_ms = 0;
  return options;
}

TEST_CASE("A point-in-time restore holds exactly the items of its moment") {
  ManualClock clock;
  Engine engine{NoLag(), clock};
  REQUIRE(engine.CreateTable(PointInTimeTable("T")).ok());
  for (int i = 0; i < 20; ++i) {  // before recovery was enabled: the starting state
    REQUIRE(testing::Put(engine, "T", {{"pk", S("k" + std::to_string(i))}, {"v", S("0")}}).ok());
  }
  clock.AdvanceMs(10);
  REQUIRE(engine.UpdateContinuousBackups({"T", true, std::nullopt}).ok());
  std::map<int64_t, std::map<std::string, std::string>> states;
  states[clock.NowMs()] = Contents(engine, "T");
  clock.AdvanceMs(1);  // a moment holds the changes of its millisecond: none yet
  std::mt19937 random(11);
  for (int step = 1; step <= 300; ++step) {
    const std::string key = "k" + std::to_string(random() % 30);
    switch (random() % 3) {
      case 0:
      case 1:
        REQUIRE(testing::Put(engine, "T", {{"pk", S(key)}, {"v", S(std::to_string(step))}}).ok());
        break;
      case 2:
        REQUIRE(testing::Delete(engine, "T", {{"pk", S(key)}}).ok());
        break;
    }
    // Several changes share a millisecond now and then: a moment holds all of its own.
    if (random() % 3 == 0) {
      clock.AdvanceMs(1 + static_cast<int64_t>(random() % 5));
      states[clock.NowMs() - 1] = Contents(engine, "T");
    }
  }
  states[clock.NowMs()] = Contents(engine, "T");
  int restored = 0;
  for (const auto& [moment, expected] : states) {
    if (random() % 4 != 0 && moment != states.begin()->first) continue;  // a sample, and the start
    const std::string target = "R" + std::to_string(++restored);
    RestoreTableToPointInTimeArgs args;
    args.source_table_name = "T";
    args.target_table_name = target;
    args.restore_date_time_ms = moment;
    auto answer = engine.RestoreTableToPointInTime(args);
    REQUIRE(answer.ok());
    INFO("moment " << moment);
    CHECK(Contents(engine, target) == expected);
    CHECK(answer.value().restore_summary->restore_date_time_ms == moment);
  }
  CHECK(restored > 10);
  // The latest restorable moment (no lag here) is now.
  RestoreTableToPointInTimeArgs latest;
  latest.source_table_name = "T";
  latest.target_table_name = "Latest";
  latest.use_latest_restorable_time = true;
  REQUIRE(engine.RestoreTableToPointInTime(latest).ok());
  CHECK(Contents(engine, "Latest") == Contents(engine, "T"));
}

TEST_CASE("The history's byte bound moves the earliest restorable moment up") {
  ManualClock clock;
  EngineOptions options = NoLag();
  options.pitr_history_bytes = 2000;
  Engine engine{options, clock};
  REQUIRE(engine.CreateTable(PointInTimeTable("T")).ok());
  REQUIRE(engine.UpdateContinuousBackups({"T", true, std::nullopt}).ok());
  const int64_t enabled = clock.NowMs();
  CHECK(engine.DescribeContinuousBackups("T").value().earliest_restorable_ms == enabled);
  for (int i = 0; i < 100; ++i) {
    clock.AdvanceMs(1);
    REQUIRE(testing::Put(engine, "T",
                         {{"pk", S("k")}, {"v", S(std::string(50, 'x') + std::to_string(i))}})
                .ok());
  }
  const int64_t earliest = engine.DescribeContinuousBackups("T").value().earliest_restorable_ms;
  CHECK(earliest > enabled + 50);
  CHECK(earliest < clock.NowMs());
  RestoreTableToPointInTimeArgs args;
  args.source_table_name = "T";
  args.target_table_name = "Old";
  args.restore_date_time_ms = earliest - 1;
  auto refused = engine.RestoreTableToPointInTime(args);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kInvalidRestoreTime);
  args.restore_date_time_ms = earliest;
  REQUIRE(engine.RestoreTableToPointInTime(args).ok());
  CHECK(Contents(engine, "Old").size() == 1);
}

TEST_CASE("Point-in-time restores are refused in DynamoDB's order") {
  ManualClock clock;
  Engine engine{{}, clock};  // DynamoDB's five minutes of lag
  REQUIRE(engine.CreateTable(PointInTimeTable("T")).ok());
  REQUIRE(engine.CreateTable(PointInTimeTable("Taken")).ok());
  RestoreTableToPointInTimeArgs args;
  args.source_table_name = "Missing";
  args.target_table_name = "Taken";
  args.use_latest_restorable_time = true;
  CHECK(engine.RestoreTableToPointInTime(args).error().message() == "Table not found: Missing");
  args.source_table_name = "T";
  auto off = engine.RestoreTableToPointInTime(args);
  CHECK(off.error().code() == ErrorCode::kPointInTimeRecoveryUnavailable);
  CHECK(off.error().message() == "Point in time recovery is not enabled for table 'T'");
  REQUIRE(engine.UpdateContinuousBackups({"T", true, std::nullopt}).ok());
  // Right after enabling, the window is the enabling moment alone.
  args.use_latest_restorable_time = false;
  args.restore_date_time_ms = clock.NowMs() + 1000;
  auto late = engine.RestoreTableToPointInTime(args);
  CHECK(late.error().code() == ErrorCode::kInvalidRestoreTime);
  CHECK(late.error().message() ==
        "RestoreDateTime '2023-11-14T22:13:21Z' must be within EarliestRestorableDateTime "
        "'2023-11-14T22:13:20Z' and LatestRestorableDateTime '2023-11-14T22:13:20Z'");
  args.use_latest_restorable_time = true;
  args.restore_date_time_ms.reset();
  auto taken = engine.RestoreTableToPointInTime(args);
  CHECK(taken.error().code() == ErrorCode::kTableAlreadyExists);
  CHECK(taken.error().message() == "Table already exists: Taken");
}

}  // namespace
}  // namespace ddbd
