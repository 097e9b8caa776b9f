// DynamoDB Streams with a manual clock: records per view type and per write path, no records for
// no-ops, shard rollover lineage, iterator expiry, 24-hour retention, the byte bound, and streams
// that outlive their table.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

constexpr int64_t kHourMs = 3'600'000;
using Type = ShardIteratorType;

struct StreamsFixture {
  ManualClock clock;
  EngineOptions options;
  std::unique_ptr<Engine> engine;
  explicit StreamsFixture(int64_t rollover_ms = 4 * kHourMs,
                          int64_t max_bytes = int64_t{256} << 20) {
    options.stream_shard_rollover_ms = rollover_ms;
    options.stream_max_bytes = max_bytes;
    options.ttl_cooldown_ms = 0;
    engine = std::make_unique<Engine>(options, clock);
  }
  std::string Create(const std::string& name, std::optional<StreamViewType> view) {
    CreateTableArgs args;
    args.table_name = name;
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
    args.key_schema = {{"pk", KeyType::kHash}};
    args.billing_mode = BillingMode::kPayPerRequest;
    if (view) args.stream_specification = StreamSpecification{true, view};
    auto created = engine->CreateTable(args);
    REQUIRE(created.ok());
    if (!view) return "";
    return created.value().table_arn + "/stream/" + created.value().latest_stream_label;
  }
  std::vector<ShardDescription> Shards(const std::string& arn) {
    auto described = engine->DescribeStream({arn, 100, std::nullopt, std::nullopt});
    REQUIRE(described.ok());
    return described.value().description.shards;
  }
  std::string Iterator(const std::string& arn, const std::string& shard, Type type,
                       std::optional<uint64_t> sequence = std::nullopt) {
    auto iterator = engine->GetShardIterator({arn, shard, type, sequence});
    REQUIRE(iterator.ok());
    return iterator.value();
  }
  std::vector<StreamRecord> ReadAll(const std::string& arn) {
    auto all = testing::StreamRecords(*engine, arn);
    REQUIRE(all.ok());
    return std::move(all.value());
  }
};

Item StreamsImage(const std::string& blob) { return blob.empty() ? Item() : DecodeItem(blob); }

TEST_CASE("Records follow every write path, with the images of the view type") {
  for (StreamViewType view : {StreamViewType::kKeysOnly, StreamViewType::kNewImage,
                              StreamViewType::kOldImage, StreamViewType::kNewAndOldImages}) {
    StreamsFixture f;
    const std::string arn = f.Create("Orders", view);
    REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("a")}, {"v", N("1")}}).ok());
    REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("a")}, {"v", N("1")}}).ok());  // no-op
    UpdateAction set;
    set.kind = UpdateAction::Kind::kSet;
    set.path = {{"v", -1}};
    set.value.operand.kind = Operand::Kind::kValue;
    set.value.operand.value = N("2");
    REQUIRE(testing::Update(*f.engine, "Orders", {{"pk", S("a")}}, {set}).ok());
    REQUIRE(testing::Delete(*f.engine, "Orders", {{"pk", S("a")}}).ok());
    REQUIRE(testing::Delete(*f.engine, "Orders", {{"pk", S("a")}}).ok());  // nothing to delete
    const std::vector<StreamRecord> records = f.ReadAll(arn);
    REQUIRE(records.size() == 3);
    CHECK(records[0].kind == ChangeKind::kInsert);
    CHECK(records[1].kind == ChangeKind::kModify);
    CHECK(records[2].kind == ChangeKind::kRemove);
    for (const StreamRecord& record : records)
      CHECK(StreamsImage(record.keys) == Item{{"pk", S("a")}});
    CHECK(records[0].sequence < records[1].sequence);
    CHECK(records[1].sequence < records[2].sequence);
    const bool has_new =
        view == StreamViewType::kNewImage || view == StreamViewType::kNewAndOldImages;
    const bool has_old =
        view == StreamViewType::kOldImage || view == StreamViewType::kNewAndOldImages;
    CHECK(StreamsImage(records[1].new_image) ==
          (has_new ? Item{{"pk", S("a")}, {"v", N("2")}} : Item()));
    CHECK(StreamsImage(records[1].old_image) ==
          (has_old ? Item{{"pk", S("a")}, {"v", N("1")}} : Item()));
    CHECK(records[0].old_image.empty());
    CHECK(records[2].new_image.empty());
  }
}

AttributeValue StreamsMap(AttributeMap members) {
  AttributeValue value;
  value.type = AttributeType::kM;
  value.map = std::move(members);
  return value;
}

AttributeValue StringSet(std::vector<std::string> members) {
  AttributeValue value;
  value.type = AttributeType::kSS;
  value.members = std::move(members);
  return value;
}

// ../shared/behaviours-to-match.md F2, recorded against AWS.
TEST_CASE("A write that only reorders attributes, map members or set members changes nothing") {
  const Item item = {{"pk", S("a")},
                     {"v", N("1")},
                     {"m", StreamsMap({{"a", N("1")}, {"b", N("2")}})},
                     {"s", StringSet({"x", "y"})}};
  const Item reordered = {{"s", StringSet({"y", "x"})},
                          {"pk", S("a")},
                          {"m", StreamsMap({{"b", N("2")}, {"a", N("1")}})},
                          {"v", N("1")}};
  CHECK(SameItem(EncodeItem(item), EncodeItem(reordered)));
  CHECK(SameItem(EncodeItem(item), EncodeItem(item)));
  Item changed = item;
  changed[1].second = N("2");
  CHECK_FALSE(SameItem(EncodeItem(item), EncodeItem(changed)));
  Item deeper = item;
  deeper[2].second = StreamsMap({{"a", N("1")}, {"b", N("3")}});
  CHECK_FALSE(SameItem(EncodeItem(item), EncodeItem(deeper)));
  Item other_set = item;
  other_set[3].second = StringSet({"x", "z"});
  CHECK_FALSE(SameItem(EncodeItem(item), EncodeItem(other_set)));
  Item listed = item;
  listed[2].second.type = AttributeType::kL;  // a list's order is its value
  listed[2].second.list = {N("1"), N("2")};
  listed[2].second.map.clear();
  Item relisted = listed;
  relisted[2].second.list = {N("2"), N("1")};
  CHECK_FALSE(SameItem(EncodeItem(listed), EncodeItem(relisted)));

  StreamsFixture f;
  const std::string arn = f.Create("Orders", StreamViewType::kNewAndOldImages);
  REQUIRE(testing::Put(*f.engine, "Orders", item).ok());
  REQUIRE(testing::Put(*f.engine, "Orders", reordered).ok());  // no record
  UpdateAction set;
  set.kind = UpdateAction::Kind::kSet;
  set.path = {{"m", -1}};
  set.value.operand.kind = Operand::Kind::kValue;
  set.value.operand.value = StreamsMap({{"b", N("2")}, {"a", N("1")}});
  REQUIRE(testing::Update(*f.engine, "Orders", {{"pk", S("a")}}, {set}).ok());  // no record
  REQUIRE(testing::Put(*f.engine, "Orders", changed).ok());
  const std::vector<StreamRecord> records = f.ReadAll(arn);
  REQUIRE(records.size() == 2);
  CHECK(records[0].kind == ChangeKind::kInsert);
  CHECK(records[1].kind == ChangeKind::kModify);
}

TEST_CASE("Batches, transactions and TTL deletes are recorded, TTL's carry the service identity") {
  StreamsFixture f;
  const std::string arn = f.Create("Orders", StreamViewType::kNewAndOldImages);
  BatchWriteItemArgs batch;
  batch.requests.push_back({"Orders", WriteRequest::Kind::kPut, {{"pk", S("b")}}});
  REQUIRE(f.engine->BatchWriteItem(batch).ok());
  TransactWriteItemsArgs transaction;
  TransactWriteAction put;
  put.kind = TransactWriteAction::Kind::kPut;
  put.table_name = "Orders";
  put.item = {{"pk", S("t")}, {"expires", N(std::to_string(f.clock.NowMs() / 1000))}};
  transaction.actions.push_back(put);
  REQUIRE(f.engine->TransactWriteItems(transaction).ok());
  REQUIRE(f.engine->UpdateTimeToLive({"Orders", {"expires", true}}).ok());
  CHECK(f.engine->SweepExpiredItems(10) == 1);
  const std::vector<StreamRecord> records = f.ReadAll(arn);
  REQUIRE(records.size() == 3);
  CHECK(StreamsImage(records[0].keys) == Item{{"pk", S("b")}});
  CHECK(StreamsImage(records[1].keys) == Item{{"pk", S("t")}});
  CHECK_FALSE(records[1].by_time_to_live);
  CHECK(records[2].kind == ChangeKind::kRemove);
  CHECK(records[2].by_time_to_live);
}

TEST_CASE("Shards roll over with lineage, a closed shard read to its end has no next iterator") {
  StreamsFixture f(kHourMs);
  const std::string arn = f.Create("Orders", StreamViewType::kKeysOnly);
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("1")}}).ok());
  f.clock.AdvanceMs(kHourMs);
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("2")}}).ok());
  f.clock.AdvanceMs(3 * kHourMs);  // quiet: the open shard rolls over three times when looked at
  const std::vector<ShardDescription> shards = f.Shards(arn);
  REQUIRE(shards.size() == 5);
  for (size_t i = 1; i < shards.size(); ++i) {
    CHECK(shards[i].parent_shard_id == shards[i - 1].shard_id);
    CHECK(shards[i - 1].shard_id < shards[i].shard_id);
    CHECK(shards[i - 1].ending_sequence.has_value());
    CHECK(*shards[i - 1].ending_sequence < shards[i].starting_sequence);
  }
  CHECK(shards[0].parent_shard_id.empty());
  CHECK_FALSE(shards.back().ending_sequence.has_value());
  CHECK(shards[0].shard_id.size() == 37);
  auto read = f.engine->GetRecords({f.Iterator(arn, shards[0].shard_id, Type::kTrimHorizon), 1000});
  REQUIRE(read.ok());
  CHECK(read.value().records.size() == 1);
  CHECK_FALSE(read.value().next_shard_iterator.has_value());
  read = f.engine->GetRecords({f.Iterator(arn, shards[4].shard_id, Type::kLatest), 1000});
  REQUIRE(read.ok());
  CHECK(read.value().records.empty());
  CHECK(read.value().next_shard_iterator.has_value());  // open: more may come
  auto children = f.engine->DescribeStream({arn, 100, std::nullopt, shards[1].shard_id});
  REQUIRE(children.value().description.shards.size() == 1);
  CHECK(children.value().description.shards[0].shard_id == shards[2].shard_id);
  auto page = f.engine->DescribeStream({arn, 2, std::nullopt, std::nullopt});
  CHECK(page.value().description.shards.size() == 2);
  CHECK(page.value().last_evaluated_shard_id == shards[1].shard_id);
  page = f.engine->DescribeStream({arn, 2, shards[1].shard_id, std::nullopt});
  CHECK(page.value().description.shards[0].shard_id == shards[2].shard_id);
}

TEST_CASE("Iterators: positions by sequence number, expiry after 15 minutes, tampering") {
  StreamsFixture f;
  const std::string arn = f.Create("Orders", StreamViewType::kKeysOnly);
  for (const char* key : {"1", "2", "3"}) {
    REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S(key)}}).ok());
  }
  const std::string shard = f.Shards(arn)[0].shard_id;
  const std::vector<StreamRecord> records = f.ReadAll(arn);
  REQUIRE(records.size() == 3);
  auto at = f.engine->GetRecords(
      {f.Iterator(arn, shard, Type::kAtSequenceNumber, records[1].sequence), 1000});
  REQUIRE(at.value().records.size() == 2);
  CHECK(at.value().records[0].sequence == records[1].sequence);
  auto after = f.engine->GetRecords(
      {f.Iterator(arn, shard, Type::kAfterSequenceNumber, records[1].sequence), 1});
  REQUIRE(after.value().records.size() == 1);
  CHECK(after.value().records[0].sequence == records[2].sequence);
  CHECK(f.engine->GetShardIterator({arn, shard, Type::kAtSequenceNumber, records[2].sequence + 5})
            .error()
            .code() == ErrorCode::kValidation);
  CHECK(f.engine
            ->GetShardIterator(
                {arn, "shardId-00000000000000000000-00000000", Type::kLatest, std::nullopt})
            .error()
            .code() == ErrorCode::kResourceNotFound);
  const std::string iterator = f.Iterator(arn, shard, Type::kTrimHorizon);
  std::string changed = iterator;
  changed[changed.size() - 1] = changed.back() == '0' ? '1' : '0';
  CHECK(f.engine->GetRecords({changed, 10}).error().code() == ErrorCode::kValidation);
  f.clock.AdvanceMs(kShardIteratorLifetimeMs);
  CHECK(f.engine->GetRecords({iterator, 10}).ok());
  f.clock.AdvanceMs(1);
  auto expired = f.engine->GetRecords({iterator, 10});
  CHECK(expired.error().code() == ErrorCode::kExpiredIterator);
  CHECK(f.engine
            ->DescribeStream({"arn:aws:dynamodb:us-east-1:000000000000:table/Orders", 100,
                              std::nullopt, std::nullopt})
            .error()
            .code() == ErrorCode::kValidation);
}

TEST_CASE("Records are kept 24 hours, an iterator behind them meets TrimmedDataAccess") {
  StreamsFixture f(48 * kHourMs);
  const std::string arn = f.Create("Orders", StreamViewType::kKeysOnly);
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("old")}}).ok());
  const std::string shard = f.Shards(arn)[0].shard_id;
  f.clock.AdvanceMs(12 * kHourMs);
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("new")}}).ok());
  f.clock.AdvanceMs(12 * kHourMs - 60'000);
  const std::string behind = f.Iterator(arn, shard, Type::kTrimHorizon);  // at the old record
  f.clock.AdvanceMs(60'000);  // the first record is 24 hours old: trimmed
  CHECK(f.engine->GetRecords({behind, 10}).error().code() == ErrorCode::kTrimmedDataAccess);
  auto read = f.engine->GetRecords({f.Iterator(arn, shard, Type::kTrimHorizon), 10});
  REQUIRE(read.value().records.size() == 1);
  CHECK(StreamsImage(read.value().records[0].keys) == Item{{"pk", S("new")}});
}

TEST_CASE("A stream over its byte bound trims its oldest records") {
  StreamsFixture f(4 * kHourMs, 4096);
  const std::string arn = f.Create("Orders", StreamViewType::kNewAndOldImages);
  const std::string shard = f.Shards(arn)[0].shard_id;
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("first")}}).ok());
  const std::string behind = f.Iterator(arn, shard, Type::kTrimHorizon);  // at "first"
  for (int i = 0; i < 100; ++i) {
    REQUIRE(testing::Put(*f.engine, "Orders",
                         {{"pk", S(std::to_string(i))}, {"pad", S(std::string(100, 'x'))}})
                .ok());
  }
  const std::vector<StreamRecord> records = f.ReadAll(arn);
  CHECK(records.size() < 30);
  REQUIRE_FALSE(records.empty());
  CHECK(StreamsImage(records.back().keys) == Item{{"pk", S("99")}});
  // Trimmed early reads as past retention.
  CHECK(f.engine->GetRecords({behind, 10}).error().code() == ErrorCode::kTrimmedDataAccess);
}

TEST_CASE("Disabling closes the stream, re-enabling makes a new one, a deleted table's stays") {
  StreamsFixture f;
  const std::string first = f.Create("Orders", StreamViewType::kKeysOnly);
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("1")}}).ok());
  UpdateTableArgs disable;
  disable.table_name = "Orders";
  disable.stream_specification = StreamSpecification{false, std::nullopt};
  REQUIRE(f.engine->UpdateTable(disable).ok());
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("2")}}).ok());  // not recorded
  auto described = f.engine->DescribeStream({first, 100, std::nullopt, std::nullopt});
  CHECK_FALSE(described.value().description.enabled);
  CHECK(described.value().description.shards[0].ending_sequence.has_value());
  CHECK(f.ReadAll(first).size() == 1);
  UpdateTableArgs enable;
  enable.table_name = "Orders";
  enable.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  auto updated = f.engine->UpdateTable(enable);
  REQUIRE(updated.ok());
  const std::string second =
      updated.value().table_arn + "/stream/" + updated.value().latest_stream_label;
  CHECK(second != first);  // same millisecond: the next label
  REQUIRE(testing::Put(*f.engine, "Orders", {{"pk", S("3")}}).ok());
  CHECK(f.ReadAll(second).size() == 1);
  CHECK(f.engine->ListStreams({"Orders", 100, std::nullopt}).value().streams.size() == 2);
  const ListStreamsResult page = f.engine->ListStreams({std::nullopt, 1, std::nullopt}).value();
  REQUIRE(page.streams.size() == 1);
  REQUIRE(page.last_evaluated_stream_arn.has_value());
  CHECK(f.engine->ListStreams({std::nullopt, 1, page.last_evaluated_stream_arn})
            .value()
            .streams.size() == 1);
  CHECK(f.engine->ListStreams({std::nullopt, 1, std::string("not-an-arn")}).error().code() ==
        ErrorCode::kValidation);
  REQUIRE(f.engine->DeleteTable("Orders").ok());
  CHECK(f.ReadAll(second).size() == 1);  // still readable
  CHECK_FALSE(f.engine->DescribeStream({second, 100, std::nullopt, std::nullopt})
                  .value()
                  .description.enabled);
  f.clock.AdvanceMs(24 * kHourMs);
  CHECK(f.engine->ListStreams({std::nullopt, 100, std::nullopt}).value().streams.empty());
  CHECK(f.engine->DescribeStream({second, 100, std::nullopt, std::nullopt}).error().code() ==
        ErrorCode::kResourceNotFound);
}

}  // namespace
}  // namespace ddbd
