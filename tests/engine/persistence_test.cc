// The engine with a db_path on an in-memory file system: everything observable comes back after a
// restart (tables and settings, items, indexes, TTL, streams and their records), a crash keeps
// what was durable and ignores a torn tail, a second engine on the directory is refused, and
// corruption is refused by name.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <future>
#include <string>
#include <thread>

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

using Store = testing::MemoryStore;

void PersistenceDurable(Engine& engine) { REQUIRE(testing::WaitDurable(engine).ok()); }

// Cuts the last record of segment `number` at every byte (a crash while writing it) and calls
// `check` on the store opened each time; `whole`: the record was left entire. The segments each
// start adds are removed after it: in numbers they would make a start rewrite the log.
void ForEachCutOfLastRecord(Store& store, uint64_t number,
                            const std::function<void(Engine& engine, bool whole)>& check) {
  const std::string segment = "db/" + LogSegmentName(number);
  const std::string whole = store.files.ReadFile(segment).value();
  const uint64_t last = ReadLog("log", whole).value().records.All().back().offset;
  for (size_t cut = last; cut <= whole.size(); ++cut) {
    INFO("cut at " << cut);
    store.files.Contents(segment) = whole.substr(0, cut);
    check(*store.Open(), cut == whole.size());
    const std::vector<std::string> names = store.files.List("db").value();
    for (const std::string& name : names) {
      if (name.ends_with(".log") && name > LogSegmentName(number)) {
        REQUIRE(store.files.Remove("db/" + name).ok());
      }
    }
  }
}

CreateTableArgs PersistenceOrders() {
  CreateTableArgs args;
  args.table_name = "Orders";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                {"sk", ScalarAttributeType::kN},
                                {"status", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.global_secondary_indexes = {
      {"by-status", {{"status", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
  args.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  return args;
}

Item Key(const std::string& pk, const std::string& sk) { return {{"pk", S(pk)}, {"sk", N(sk)}}; }

size_t IndexCount(Engine& engine, const std::string& index_name) {
  auto table = engine.DescribeTable("Orders");
  REQUIRE(table.ok());
  for (const IndexDescription& index : table.value().indexes) {
    if (index.definition.index_name == index_name) return static_cast<size_t>(index.item_count);
  }
  return SIZE_MAX;
}

TEST_CASE("Tables, items, indexes and TTL come back after a restart") {
  Store store;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(PersistenceOrders()).ok());
    CreateTableArgs other = PersistenceOrders();
    other.table_name = "Gone";
    REQUIRE(engine->CreateTable(other).ok());
    for (int i = 0; i < 20; ++i) {
      REQUIRE(testing::Put(*engine, "Orders",
                           {{"pk", S("p")}, {"sk", N(std::to_string(i))}, {"status", S("open")}})
                  .ok());
    }
    REQUIRE(testing::Delete(*engine, "Orders", Key("p", "3")).ok());
    REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("p")}, {"sk", N("4")}, {"note", S("x")}})
                .ok());  // replaced, out of the index
    REQUIRE(engine->DeleteTable("Gone").ok());
    REQUIRE(engine->UpdateTimeToLive({"Orders", {"expires", true}}).ok());
    UpdateTableArgs add;
    add.table_name = "Orders";
    add.attribute_definitions = PersistenceOrders().attribute_definitions;
    GlobalSecondaryIndexUpdate create;
    create.action = GlobalSecondaryIndexUpdate::Action::kCreate;
    create.index = {"by-sk", {{"sk", KeyType::kHash}}, {}, std::nullopt, std::nullopt};
    create.index.projection.projection_type = ProjectionType::kKeysOnly;
    add.global_secondary_index_updates = {create};
    REQUIRE(engine->UpdateTable(add).ok());
    REQUIRE(testing::Put(*engine, "Orders",
                         {{"pk", S("q")}, {"sk", N("1")}, {"expires", N("1700000000")}})
                .ok());
    PersistenceDurable(*engine);
  }
  store.files.Crash();
  auto engine = store.Open();
  auto table = engine->DescribeTable("Orders");
  REQUIRE(table.ok());
  CHECK(table.value().item_count == 20);
  CHECK(table.value().table_status == TableStatus::kActive);
  CHECK(table.value().stream_specification.has_value());
  CHECK(IndexCount(*engine, "by-status") == 18);
  CHECK(IndexCount(*engine, "by-sk") == 20);
  CHECK(engine->DescribeTable("Gone").error().code() == ErrorCode::kResourceNotFound);
  CHECK_FALSE(testing::Get(*engine, "Orders", Key("p", "3")).value().item.has_value());
  auto replaced = testing::Get(*engine, "Orders", Key("p", "4"));
  REQUIRE(replaced.value().item.has_value());
  CHECK(FindAttribute(DecodeItem(replaced.value().item->blob), "note")->scalar == "x");
  CHECK(engine->DescribeTimeToLive("Orders").value().attribute_name == "expires");
  CHECK(engine->SweepExpiredItems(10) == 1);  // the TTL index came back too
  // New writes after the restart are logged as well.
  REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("r")}, {"sk", N("1")}}).ok());
  PersistenceDurable(*engine);
  engine.reset();
  store.files.Crash();
  engine = store.Open();
  CHECK(engine->DescribeTable("Orders").value().item_count == 20);
  CHECK(testing::Get(*engine, "Orders", Key("r", "1")).value().item.has_value());
}

TEST_CASE("A crash keeps what was durable and ignores a torn last record") {
  Store store;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(PersistenceOrders()).ok());
    REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("a")}, {"sk", N("1")}}).ok());
    PersistenceDurable(*engine);
    store.files.SetSpaceLimit(SIZE_MAX);
  }
  // What follows the last sync is torn: a record half on disk.
  for (size_t torn : {size_t{0}, size_t{5}, size_t{40}}) {
    INFO("torn bytes " << torn);
    {
      auto engine = store.Open();
      REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("b")}, {"sk", N("1")}}).ok());
      // Not waited for: the crash comes first or after, either is allowed.
    }
    store.files.Crash(torn);
    auto engine = store.Open();
    CHECK(
        testing::Get(*engine, "Orders", {{"pk", S("a")}, {"sk", N("1")}}).value().item.has_value());
  }
}

TEST_CASE("A transaction's writes survive a crash together or not at all") {
  Store store;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(PersistenceOrders()).ok());
    PersistenceDurable(*engine);
  }
  auto transaction = [](const std::string& tag) {
    TransactWriteItemsArgs args;
    for (const char* pk : {"x", "y"}) {
      TransactWriteAction put;
      put.kind = TransactWriteAction::Kind::kPut;
      put.table_name = "Orders";
      put.item = {{"pk", S(pk)}, {"sk", N("1")}, {"tag", S(tag)}};
      args.actions.push_back(put);
    }
    return args;
  };
  {
    auto engine = store.Open();
    REQUIRE(engine->TransactWriteItems(transaction("both")).ok());
    PersistenceDurable(*engine);
  }
  // The transaction is the last record of the second segment: cut it at every byte.
  ForEachCutOfLastRecord(store, 2, [](Engine& engine, bool whole) {
    const bool x = testing::Get(engine, "Orders", Key("x", "1")).value().item.has_value();
    const bool y = testing::Get(engine, "Orders", Key("y", "1")).value().item.has_value();
    CHECK(x == y);
    CHECK(x == whole);
  });
}

TEST_CASE("A log much larger than its state is rewritten as one segment at start") {
  Store store;
  {
    auto engine = store.Open();
    CreateTableArgs orders = PersistenceOrders();
    orders.stream_specification.reset();  // its records would be kept: they are state too
    REQUIRE(engine->CreateTable(orders).ok());
    for (int round = 0; round < 30; ++round) {  // the same 50 items overwritten 30 times
      for (int i = 0; i < 50; ++i) {
        REQUIRE(testing::Put(*engine, "Orders",
                             {{"pk", S("p")},
                              {"sk", N(std::to_string(i))},
                              {"round", N(std::to_string(round))},
                              {"pad", S(std::string(1000, 'x'))}})
                    .ok());
      }
    }
    PersistenceDurable(*engine);
  }
  auto log_bytes = [&store] {
    size_t bytes = 0;
    const std::vector<std::string> names = store.files.List("db").value();
    for (const std::string& name : names) {
      if (name.ends_with(".log")) bytes += store.files.ReadFile("db/" + name).value().size();
    }
    return bytes;
  };
  const size_t before = log_bytes();
  for (int start = 0; start < 20; ++start) store.Open();  // each start adds a segment
  auto engine = store.Open();
  const std::vector<std::string> names = store.files.List("db").value();
  CHECK(names.size() <= 18);  // never more than 16 segments before a rewrite, and the lock
  CHECK(log_bytes() < before / 10);
  auto table = engine->DescribeTable("Orders");
  CHECK(table.value().item_count == 50);
  auto item = testing::Get(*engine, "Orders", Key("p", "7")).value().item;
  REQUIRE(item.has_value());
  CHECK(FindAttribute(DecodeItem(item->blob), "round")->scalar == "29");
  CHECK(IndexCount(*engine, "by-status") == 0);
  // A crash in the middle of a checkpoint leaves its file aside: the log is as before.
  store.files.Contents("db/checkpoint.tmp") = "partial";
  engine.reset();
  engine = store.Open();
  CHECK(engine->DescribeTable("Orders").value().item_count == 50);
}

TEST_CASE("A second engine on the directory is refused, so is a corrupt log") {
  Store store;
  auto first = store.Open();
  // Each durable before the next: three groups (log_format.h), so damage in the first has whole
  // groups after it.
  REQUIRE(first->CreateTable(PersistenceOrders()).ok());
  PersistenceDurable(*first);
  REQUIRE(testing::Put(*first, "Orders", {{"pk", S("a")}, {"sk", N("1")}}).ok());
  PersistenceDurable(*first);
  REQUIRE(testing::Put(*first, "Orders", {{"pk", S("b")}, {"sk", N("1")}}).ok());
  PersistenceDurable(*first);
  auto second = Engine::Open(store.Options(), store.clock);
  REQUIRE_FALSE(second.ok());
  CHECK(second.error().message() == "db/LOCK is locked by another process");
  first.reset();
  std::string& log = store.files.Contents("db/" + LogSegmentName(1));
  log[40] ^= 0x20;  // inside the first group's opening record, with good groups after it
  auto corrupt = Engine::Open(store.Options(), store.clock);
  REQUIRE_FALSE(corrupt.ok());
  INFO(corrupt.error().message());
  CHECK(corrupt.error().message().starts_with(
      "db/0000000001.log: record checksum mismatch at offset 32; starting would lose "));
  CHECK(corrupt.error().message().find("--wal-recovery-mode point-in-time") != std::string::npos);
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

TEST_CASE("A write the disk refused is logged once there is room: memory and log agree") {
  Store store;
  auto engine = store.Open();
  REQUIRE(engine->CreateTable(PersistenceOrders()).ok());
  PersistenceDurable(*engine);
  store.files.SetSpaceLimit(store.files.ReadFile("db/" + LogSegmentName(1)).value().size() + 20);
  REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("full")}, {"sk", N("1")}}).ok());
  CHECK_FALSE(testing::WaitDurable(*engine).ok());  // its answer: InternalServerError
  CHECK(engine->log_failing());
  CHECK(engine->SweepExpiredItems(10) == 0);
  CHECK_FALSE(engine->Checkpoint(true).value());
  // In memory it happened (a read, or a retried put that changes nothing, sees it)...
  CHECK(testing::Get(*engine, "Orders", Key("full", "1")).value().item.has_value());
  store.files.SetSpaceLimit(SIZE_MAX);
  for (int i = 0; i < 100 && engine->log_failing(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK_FALSE(engine->log_failing());
  // ...and once there is room the log has it too, so a crash keeps what readers saw.
  engine.reset();
  store.files.Crash();
  engine = store.Open();
  CHECK(testing::Get(*engine, "Orders", Key("full", "1")).value().item.has_value());
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

TEST_CASE("ClientRequestTokens survive a restart and a checkpoint, within their window") {
  Store store;
  auto with_token = [](const std::string& tag, uint64_t fingerprint) {
    TransactWriteItemsArgs args;
    TransactWriteAction put;
    put.kind = TransactWriteAction::Kind::kPut;
    put.table_name = "Orders";
    put.item = {{"pk", S("t")}, {"sk", N("1")}, {"tag", S(tag)}};
    args.actions.push_back(put);
    args.client_request_token = "token-1";
    args.request_fingerprint = fingerprint;
    return args;
  };
  auto tag = [](Engine& engine) {
    auto item = testing::Get(engine, "Orders", Key("t", "1")).value().item;
    REQUIRE(item.has_value());
    return FindAttribute(DecodeItem(item->blob), "tag")->scalar;
  };
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(PersistenceOrders()).ok());
    REQUIRE(engine->TransactWriteItems(with_token("first", 1)).ok());
    // Changed since by someone else: a repeat of the token must not write "first" again.
    REQUIRE(testing::Put(*engine, "Orders", {{"pk", S("t")}, {"sk", N("1")}, {"tag", S("other")}})
                .ok());
    PersistenceDurable(*engine);
  }
  store.files.Crash();
  for (bool checkpoint : {false, true}) {
    INFO("after a checkpoint: " << checkpoint);
    auto engine = store.Open();
    if (checkpoint) REQUIRE(engine->Checkpoint(true).value());
    REQUIRE(engine->TransactWriteItems(with_token("first", 1)).ok());  // answered as a repeat
    CHECK(tag(*engine) == "other");
    CHECK(engine->TransactWriteItems(with_token("second", 2)).error().code() ==
          ErrorCode::kIdempotentParameterMismatch);
    engine.reset();
    store.files.Crash();
  }
  // Ten minutes on, the token is free again and the call runs.
  store.clock.AdvanceMs(10 * 60 * 1000);
  auto engine = store.Open();
  REQUIRE(engine->TransactWriteItems(with_token("second", 2)).ok());
  CHECK(tag(*engine) == "second");
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

std::string StreamOf(Engine& engine, const std::string& table) {
  auto described = engine.DescribeTable(table);
  REQUIRE(described.ok());
  return described.value().table_arn + "/stream/" + described.value().latest_stream_label;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (char byte : bytes) {
    const auto c = static_cast<unsigned char>(byte);
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

// Everything a Streams consumer can see, as text: every stream listed, its description, shards
// and records (a line each).
std::string StreamsSeen(Engine& engine) {
  std::string seen;
  auto listed = engine.ListStreams({});
  REQUIRE(listed.ok());
  for (const StreamSummary& summary : listed.value().streams) {
    auto described = engine.DescribeStream({summary.stream_arn, 100, std::nullopt, std::nullopt});
    REQUIRE(described.ok());
    const StreamDescription& stream = described.value().description;
    seen += summary.stream_arn + " " + summary.table_name + " " + summary.stream_label +
            (stream.enabled ? " ENABLED " : " DISABLED ") +
            std::to_string(static_cast<int>(stream.view_type)) + " " +
            std::to_string(stream.creation_ms) + "\n";
    for (const ShardDescription& shard : stream.shards) {
      seen += "  " + shard.shard_id + " <- " + shard.parent_shard_id + " " +
              std::to_string(shard.starting_sequence) + ".." +
              (shard.ending_sequence ? std::to_string(*shard.ending_sequence) : "") + "\n";
    }
    auto records = testing::StreamRecords(engine, summary.stream_arn);
    REQUIRE(records.ok());
    for (const StreamRecord& record : records.value()) {
      seen += "    " + std::to_string(record.sequence) + " " + std::to_string(record.created_ms) +
              " " + std::to_string(static_cast<int>(record.kind)) +
              (record.by_time_to_live ? " ttl " : " user ") + std::to_string(record.old_size) +
              "/" + std::to_string(record.new_size) + " [" + Hex(record.keys) + "][" +
              Hex(record.old_image) + "][" + Hex(record.new_image) + "]\n";
    }
  }
  return seen;
}

CreateTableArgs Streamed(const std::string& name) {
  CreateTableArgs args;
  args.table_name = name;
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  return args;
}

TEST_CASE("Streams come back after a restart: the same ARNs, shards and records, then go on") {
  Store store;
  std::string seen;
  std::string events;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Streamed("Events")).ok());
    REQUIRE(engine->CreateTable(Streamed("Disabled")).ok());
    REQUIRE(engine->CreateTable(Streamed("Dropped")).ok());
    events = StreamOf(*engine, "Events");
    for (const char* table : {"Events", "Disabled", "Dropped"}) {
      REQUIRE(testing::Put(*engine, table, {{"pk", S("a")}, {"v", N("1")}}).ok());
    }
    REQUIRE(testing::Put(*engine, "Events", {{"pk", S("b")}, {"v", N("2")}}).ok());
    REQUIRE(testing::Put(*engine, "Events", {{"pk", S("a")}, {"v", N("3")}}).ok());
    REQUIRE(testing::Delete(*engine, "Events", {{"pk", S("b")}}).ok());
    TransactWriteItemsArgs pair;
    for (const char* pk : {"c", "d"}) {
      TransactWriteAction put;
      put.kind = TransactWriteAction::Kind::kPut;
      put.table_name = "Events";
      put.item = {{"pk", S(pk)}};
      pair.actions.push_back(put);
    }
    REQUIRE(engine->TransactWriteItems(pair).ok());
    REQUIRE(engine->UpdateTimeToLive({"Events", {"expires", true}}).ok());
    REQUIRE(testing::Put(*engine, "Events", {{"pk", S("e")}, {"expires", N("1600000000")}}).ok());
    CHECK(engine->SweepExpiredItems(10) == 1);        // a REMOVE by the service
    store.clock.AdvanceMs(int64_t{5} * 3600 * 1000);  // past a shard rollover (4 hours)
    REQUIRE(testing::Put(*engine, "Events", {{"pk", S("f")}}).ok());
    UpdateTableArgs disable;
    disable.table_name = "Disabled";
    disable.stream_specification = StreamSpecification{false, std::nullopt};
    REQUIRE(engine->UpdateTable(disable).ok());
    REQUIRE(engine->DeleteTable("Dropped").ok());
    PersistenceDurable(*engine);
    seen = StreamsSeen(*engine);
  }
  // What the streams held: three streams of two shards each (5 hours passed), 11 records.
  INFO(seen);
  CHECK(std::count(seen.begin(), seen.end(), '\n') == 3 + 6 + 11);
  CHECK(seen.find(" ttl ") != std::string::npos);
  store.files.Crash();
  auto engine = store.Open();
  CHECK(StreamsSeen(*engine) == seen);
  CHECK(StreamOf(*engine, "Events") == events);  // the label is the one it had

  // Writes after the restart are streamed on, numbered after the ones kept; a checkpoint and
  // another restart keep all of them, once each.
  REQUIRE(testing::Put(*engine, "Events", {{"pk", S("g")}}).ok());
  PersistenceDurable(*engine);
  auto records = testing::StreamRecords(*engine, events);
  REQUIRE(records.ok());
  REQUIRE(records.value().size() == 10);
  CHECK(records.value().back().sequence > records.value()[8].sequence);
  CHECK(DecodeItem(records.value().back().keys) == Item{{"pk", S("g")}});
  REQUIRE(engine->Checkpoint(true).ok());
  REQUIRE(testing::Put(*engine, "Events", {{"pk", S("h")}}).ok());
  PersistenceDurable(*engine);
  seen = StreamsSeen(*engine);
  engine.reset();
  store.files.Crash();
  engine = store.Open();
  CHECK(StreamsSeen(*engine) == seen);
  CHECK(testing::StreamRecords(*engine, events).value().size() == 11);
}

TEST_CASE("A closed stream ages out 24 hours after it closed, not after a restart") {
  for (const bool checkpoint : {false, true}) {
    INFO("checkpoint " << checkpoint);
    Store store;
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Streamed("Disabled")).ok());
    REQUIRE(engine->CreateTable(Streamed("Dropped")).ok());
    REQUIRE(engine->CreateTable(Streamed("Events")).ok());
    for (const char* table : {"Disabled", "Dropped"}) {
      REQUIRE(testing::Put(*engine, table, {{"pk", S("a")}}).ok());
    }
    UpdateTableArgs disable;
    disable.table_name = "Disabled";
    disable.stream_specification = StreamSpecification{false, std::nullopt};
    REQUIRE(engine->UpdateTable(disable).ok());
    REQUIRE(engine->DeleteTable("Dropped").ok());
    if (checkpoint) REQUIRE(engine->Checkpoint(true).ok());
    PersistenceDurable(*engine);
    store.clock.AdvanceMs(int64_t{20} * 3600 * 1000);
    engine.reset();
    engine = store.Open();
    CHECK(engine->ListStreams({}).value().streams.size() == 3);
    store.clock.AdvanceMs(int64_t{5} * 3600 * 1000);
    const std::vector<StreamSummary> left = engine->ListStreams({}).value().streams;
    REQUIRE(left.size() == 1);
    CHECK(left[0].table_name == "Events");
  }
}

TEST_CASE("A change and its stream record survive a crash together or not at all") {
  Store store;
  {
    auto engine = store.Open();
    REQUIRE(engine->CreateTable(Streamed("Events")).ok());
    PersistenceDurable(*engine);
  }
  {
    auto engine = store.Open();
    REQUIRE(testing::Put(*engine, "Events", {{"pk", S("a")}, {"v", S("one")}}).ok());
    PersistenceDurable(*engine);
  }
  ForEachCutOfLastRecord(store, 2, [](Engine& engine, bool whole) {
    const bool item = testing::Get(engine, "Events", {{"pk", S("a")}}).value().item.has_value();
    const size_t records =
        testing::StreamRecords(engine, StreamOf(engine, "Events")).value().size();
    CHECK(item == whole);
    CHECK(records == (item ? 1 : 0));
  });
}

}  // namespace
}  // namespace ddbd
