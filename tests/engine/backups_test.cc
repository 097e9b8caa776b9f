// On-demand backups (engine/backups/on_demand_backups.h): a backup is a copy as of its moment,
// listing is by creation time within [lower, upper), backup files come back after a restart and a
// damaged one is refused by name, and a restore a crash cuts short leaves no table behind.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/log_writer.h"
#include "tests/engine/engine_calls.h"
#include "tests/engine/memory_store.h"
#include "tests/values.h"

namespace ddbd {
namespace {

CreateTableArgs Orders(const std::string& name = "Orders") {
  CreateTableArgs args;
  args.table_name = name;
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                {"status", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.global_secondary_indexes = {
      {"by-status", {{"status", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
  return args;
}

void PutOrder(Engine& engine, const std::string& pk, const std::string& status,
              const std::string& table = "Orders") {
  REQUIRE(testing::Put(engine, table, {{"pk", S(pk)}, {"status", S(status)}}).ok());
}

std::string StatusText(Engine& engine, const std::string& table, const std::string& pk) {
  auto got = testing::Get(engine, table, {{"pk", S(pk)}});
  REQUIRE(got.ok());
  if (!got.value().item) return "(none)";
  return FindAttribute(DecodeItem(got.value().item->blob), "status")->scalar;
}

using BackupStore = testing::MemoryStore;

TEST_CASE("A backup is a copy of the table as of its moment") {
  ManualClock clock;
  Engine engine{{}, clock};
  REQUIRE(engine.CreateTable(Orders()).ok());
  PutOrder(engine, "a", "open");
  PutOrder(engine, "b", "open");
  auto backup = engine.CreateBackup({"Orders", "before"});
  REQUIRE(backup.ok());
  PutOrder(engine, "a", "shipped");
  REQUIRE(testing::Delete(engine, "Orders", {{"pk", S("b")}}).ok());
  PutOrder(engine, "c", "open");
  auto restored = engine.RestoreTableFromBackup({"Copy", backup.value().backup_arn, {}});
  REQUIRE(restored.ok());
  CHECK(restored.value().item_count == 2);
  CHECK(StatusText(engine, "Copy", "a") == "open");
  CHECK(StatusText(engine, "Copy", "b") == "open");
  CHECK(StatusText(engine, "Copy", "c") == "(none)");
  CHECK(StatusText(engine, "Orders", "a") == "shipped");
  // The restored table is a table like any other: writes and its index work.
  PutOrder(engine, "d", "open", "Copy");
  QueryArgs query;
  query.table_name = "Copy";
  query.read.index_name = "by-status";
  query.key_terms = {{"status", KeyTerm::Op::kEq, {S("open")}}};
  auto page = engine.Query(query);
  REQUIRE(page.ok());
  CHECK(page.value().count == 3);
}

TEST_CASE("ListBackups takes creation times from the lower bound up to the upper, to the ms") {
  ManualClock clock;
  Engine engine{{}, clock};
  REQUIRE(engine.CreateTable(Orders()).ok());
  std::vector<std::string> arns;
  for (int i = 0; i < 3; ++i) {
    arns.push_back(engine.CreateBackup({"Orders", "b"}).value().backup_arn);
    clock.AdvanceMs(1);
  }
  const int64_t first = engine.DescribeBackup(arns[0]).value().details.backup_creation_ms;
  ListBackupsArgs args;
  args.lower_ms = first + 1;
  args.upper_ms = first + 2;
  auto listed = engine.ListBackups(args);
  REQUIRE(listed.ok());
  REQUIRE(listed.value().backups.size() == 1);
  CHECK(listed.value().backups[0].details.backup_arn == arns[1]);
  // A region other than ours in the ARN still finds the backup, as in DynamoDB.
  std::string elsewhere = arns[2];
  elsewhere.replace(elsewhere.find("us-east-1"), 9, "eu-west-1");
  CHECK(engine.DescribeBackup(elsewhere).ok());
}

TEST_CASE("Backups come back after a restart, and a damaged backup file is refused by name") {
  BackupStore store;
  std::string arn;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Orders()).ok());
    PutOrder(*engine, "a", "open");
    arn = engine->CreateBackup({"Orders", "nightly"}).value().backup_arn;
    REQUIRE(engine->DeleteTable("Orders").ok());
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  {
    auto engine = store.Open();
    auto described = engine->DescribeBackup(arn);
    REQUIRE(described.ok());
    CHECK(described.value().details.backup_name == "nightly");
    CHECK(described.value().source.item_count == 1);
    REQUIRE(engine->RestoreTableFromBackup({"Orders", arn, {}}).ok());
    CHECK(StatusText(*engine, "Orders", "a") == "open");
  }
  const std::string file = "db/backups/" + arn.substr(arn.rfind('/') + 1) + ".backup";
  store.files.Contents(file)[kLogHeaderBytes + 12] ^= 0x40;
  auto engine = Engine::Open(store.Options(), store.clock);
  REQUIRE_FALSE(engine.ok());
  CHECK(engine.error().code() == ErrorCode::kInternalServerError);
  CHECK(engine.error().message().find(arn.substr(arn.rfind('/') + 1) + ".backup") !=
        std::string::npos);
}

TEST_CASE("A deleted table's SYSTEM backup outlives restarts for 35 days, then goes") {
  BackupStore store;
  std::string arn;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Orders()).ok());
    PutOrder(*engine, "a", "open");
    REQUIRE(engine->UpdateContinuousBackups({"Orders", true, std::nullopt}).ok());
    REQUIRE(engine->DeleteTable("Orders").ok());
    ListBackupsArgs system;
    system.type = ListBackupsArgs::Type::kSystem;
    auto listed = engine->ListBackups(system);
    REQUIRE(listed.ok());
    REQUIRE(listed.value().backups.size() == 1);
    arn = listed.value().backups[0].details.backup_arn;
    CHECK(engine->DeleteBackup(arn).error().code() == ErrorCode::kValidation);
  }
  store.clock.AdvanceMs(kSystemBackupLifeMs - 1);
  {
    auto engine = store.Open();
    auto described = engine->DescribeBackup(arn);
    REQUIRE(described.ok());
    CHECK(described.value().details.system);
    CHECK(described.value().details.backup_name == "Orders$DeletedTableBackup");
    store.clock.AdvanceMs(1);
    CHECK(engine->DescribeBackup(arn).error().code() == ErrorCode::kBackupNotFound);
  }
  // Past its life, a start removes its file.
  auto engine = store.Open();
  const std::vector<std::string> names = store.files.List("db/backups").value();
  CHECK(names.empty());
}

TEST_CASE("A smaller item collection limit at a restart keeps the data, a restore past it fails") {
  BackupStore store;
  std::string arn;
  CreateTableArgs collections;
  collections.table_name = "Collections";
  collections.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                       {"sk", ScalarAttributeType::kS},
                                       {"at", ScalarAttributeType::kS}};
  collections.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  collections.billing_mode = BillingMode::kPayPerRequest;
  collections.local_secondary_indexes = {
      {"by-at", {{"pk", KeyType::kHash}, {"at", KeyType::kRange}}, {}, std::nullopt, std::nullopt}};
  auto item = [](int i, const std::string& pk) {
    const std::string n = std::to_string(i);
    return Item{{"pk", S(pk)}, {"sk", S(n)}, {"at", S(n)}, {"pad", S(std::string(500, 'x'))}};
  };
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(collections).ok());
    for (int i = 0; i < 20; ++i) REQUIRE(testing::Put(*engine, "Collections", item(i, "one")).ok());
    arn = engine->CreateBackup({"Collections", "all"}).value().backup_arn;
  }
  // Started again with a limit the stored collection is over: it is all there, and only writes
  // that would grow it are refused.
  EngineOptions options = store.Options();
  options.item_collection_limit_bytes = 4000;
  auto engine = Engine::Open(options, store.clock);
  REQUIRE(engine.ok());
  CHECK(engine.value()->DescribeTable("Collections").value().item_count == 20);
  CHECK(testing::Put(*engine.value(), "Collections", item(99, "one")).error().code() ==
        ErrorCode::kItemCollectionSizeLimitExceeded);
  CHECK(testing::Put(*engine.value(), "Collections", item(1, "two")).ok());
  // A restore that cannot hold every item leaves no table behind.
  auto restored = engine.value()->RestoreTableFromBackup({"Copy", arn, {}});
  REQUIRE_FALSE(restored.ok());
  CHECK(restored.error().code() == ErrorCode::kItemCollectionSizeLimitExceeded);
  CHECK_FALSE(engine.value()->DescribeTable("Copy").ok());
}

TEST_CASE("A restore a crash cuts short leaves no table") {
  BackupStore store;
  std::string arn;
  size_t before_restore = 0;
  const std::string segment = "db/" + LogSegmentName(1);
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Orders()).ok());
    for (const char* pk : {"a", "b", "c"}) PutOrder(*engine, pk, "open");
    arn = engine->CreateBackup({"Orders", "b"}).value().backup_arn;
    REQUIRE(testing::WaitDurable(*engine).ok());
    before_restore = store.files.ReadFile(segment).value().size();
    REQUIRE(engine->RestoreTableFromBackup({"Copy", arn, {}}).ok());
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  const std::string whole = store.files.ReadFile(segment).value();
  std::vector<size_t> cuts;
  const LogContents contents = ReadLog("log", whole).value();
  for (const LogRecord& record : contents.records) {
    if (record.offset >= before_restore) cuts.push_back(record.offset);
  }
  cuts.push_back(whole.size() - 1);  // the last record torn
  cuts.push_back(whole.size());
  // The table, its number in the log, three items, its completion; torn; whole.
  REQUIRE(cuts.size() == 8);
  for (const size_t cut : cuts) {
    INFO("cut at " << cut);
    store.files.Contents(segment) = whole.substr(0, cut);
    {
      auto engine = store.Open();
      auto copy = engine->DescribeTable("Copy");
      if (cut < whole.size()) {
        CHECK_FALSE(copy.ok());
      } else {
        REQUIRE(copy.ok());
        CHECK(copy.value().item_count == 3);
      }
      CHECK(StatusText(*engine, "Orders", "a") == "open");
    }  // closing the engine writes out what it logged
    // The dropped table's deletion was logged: it stays dropped.
    auto engine = store.Open();
    CHECK(engine->DescribeTable("Copy").ok() == (cut == whole.size()));
    engine.reset();
    const std::vector<std::string> names = store.files.List("db").value();
    for (const std::string& name : names) {
      if (name.ends_with(".log") && name > LogSegmentName(1)) {
        REQUIRE(store.files.Remove("db/" + name).ok());
      }
    }
  }
}

}  // namespace
}  // namespace ddbd
