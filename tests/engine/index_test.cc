#include <catch2/catch.hpp>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

struct IndexFixture {
  ManualClock clock;
  Engine engine{{}, clock};

  IndexFixture() {
    CreateTableArgs args;
    args.table_name = "Orders";
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                  {"sk", ScalarAttributeType::kS},
                                  {"status", ScalarAttributeType::kS},
                                  {"region", ScalarAttributeType::kS}};
    args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    args.billing_mode = BillingMode::kPayPerRequest;
    IndexDefinition by_status{
        "by-status", {{"status", KeyType::kHash}}, {}, std::nullopt, std::nullopt};
    by_status.projection.projection_type = ProjectionType::kKeysOnly;
    IndexDefinition by_region{"by-region",
                              {{"pk", KeyType::kHash}, {"region", KeyType::kRange}},
                              {},
                              std::nullopt,
                              std::nullopt};
    args.global_secondary_indexes = {by_status};
    args.local_secondary_indexes = {by_region};
    REQUIRE(engine.CreateTable(args).ok());
  }

  // Table keys (sk values) found in `index` under `partition`.
  std::vector<std::string> InIndex(const std::string& index, const std::string& attribute,
                                   const std::string& partition) {
    QueryArgs args;
    args.table_name = "Orders";
    args.read.index_name = index;
    args.key_terms = {{attribute, KeyTerm::Op::kEq, {S(partition)}}};
    std::vector<std::string> keys;
    auto page = engine.Query(args);
    REQUIRE(page.ok());
    for (const std::string_view blob : page.value().item_blobs) {
      const Item item = DecodeItem(blob);
      keys.push_back(FindAttribute(item, "sk")->scalar);
    }
    return keys;
  }

  int64_t IndexCount(size_t index) {
    return engine.DescribeTable("Orders").value().indexes[index].item_count;
  }
};

TEST_CASE("Every write path keeps the indexes in step") {
  IndexFixture f;
  Item order = {{"pk", S("c1")}, {"sk", S("o1")}, {"status", S("open")}, {"region", S("eu")}};
  REQUIRE(testing::Put(f.engine, "Orders", order).ok());
  CHECK(f.InIndex("by-status", "status", "open") == std::vector<std::string>{"o1"});
  CHECK(f.InIndex("by-region", "pk", "c1") == std::vector<std::string>{"o1"});

  // Replacing moves the entry.
  order[2].second = S("shipped");
  REQUIRE(testing::Put(f.engine, "Orders", order).ok());
  CHECK(f.InIndex("by-status", "status", "open").empty());
  CHECK(f.InIndex("by-status", "status", "shipped") == std::vector<std::string>{"o1"});

  // UpdateItem: REMOVE of an index key takes the item out (sparse index).
  UpdateAction remove;
  remove.kind = UpdateAction::Kind::kRemove;
  remove.path = {{"status", -1}};
  Item key = {{"pk", S("c1")}, {"sk", S("o1")}};
  REQUIRE(testing::Update(f.engine, "Orders", key, {remove}).ok());
  CHECK(f.InIndex("by-status", "status", "shipped").empty());
  CHECK(f.IndexCount(1) == 0);
  CHECK(f.IndexCount(0) == 1);

  // BatchWriteItem puts and deletes.
  std::vector<WriteRequest> writes = {{"Orders",
                                       WriteRequest::Kind::kPut,
                                       {{"pk", S("c2")}, {"sk", S("o2")}, {"status", S("open")}}},
                                      {"Orders", WriteRequest::Kind::kDelete, key}};
  REQUIRE(f.engine.BatchWriteItem({writes}).ok());
  CHECK(f.InIndex("by-status", "status", "open") == std::vector<std::string>{"o2"});
  CHECK(f.InIndex("by-region", "pk", "c1").empty());
  CHECK(f.IndexCount(0) == 0);

  // DeleteItem removes its entries.
  REQUIRE(testing::Delete(f.engine, "Orders", {{"pk", S("c2")}, {"sk", S("o2")}}).ok());
  CHECK(f.InIndex("by-status", "status", "open").empty());
  CHECK(f.IndexCount(1) == 0);
}

TEST_CASE("Equal index keys keep every item, ordered by table key") {
  IndexFixture f;
  for (const char* sk : {"b", "a", "c"}) {
    REQUIRE(
        testing::Put(f.engine, "Orders", {{"pk", S("c1")}, {"sk", S(sk)}, {"status", S("open")}})
            .ok());
  }
  CHECK(f.InIndex("by-status", "status", "open").size() == 3);
  CHECK(f.InIndex("by-status", "status", "open") == f.InIndex("by-status", "status", "open"));
}

TEST_CASE("A condition failure or an index key of the wrong type changes no index") {
  IndexFixture f;
  Item bad = {{"pk", S("c1")}, {"sk", S("o1")}, {"status", AttributeValue::Number("1")}};
  auto refused = testing::Put(f.engine, "Orders", bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message() ==
        "One or more parameter values were invalid: Type mismatch for Index Key status Expected: S "
        "Actual: N IndexName: by-status");
  CHECK(f.IndexCount(1) == 0);
}

TEST_CASE("An item collection of a table with an LSI stops at its limit") {
  ManualClock clock;
  EngineOptions options;
  options.item_collection_limit_bytes = 1000;
  Engine engine(options, clock);
  CreateTableArgs args;
  args.table_name = "Events";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                {"sk", ScalarAttributeType::kS},
                                {"at", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  args.billing_mode = BillingMode::kPayPerRequest;
  IndexDefinition by_time{"by-time", {{"pk", KeyType::kHash}, {"at", KeyType::kRange}}, {}, {}, {}};
  by_time.projection.projection_type = ProjectionType::kAll;
  args.local_secondary_indexes = {by_time};
  REQUIRE(engine.CreateTable(args).ok());
  // Each item counts twice: once in the table, once projected (ALL) into the LSI.
  auto event = [](const std::string& pk, int i, size_t padding) {
    return Item{{"pk", S(pk)},
                {"sk", S("e" + std::to_string(i))},
                {"at", S("t" + std::to_string(i))},
                {"pad", S(std::string(padding, 'x'))}};
  };
  int written = 0;
  Status last = Ok{};
  for (; written < 100; ++written) {
    auto put = testing::Put(engine, "Events", event("p", written, 90));
    if (!put.ok()) {
      last = put.error();
      break;
    }
  }
  REQUIRE_FALSE(last.ok());
  CHECK(last.error().code() == ErrorCode::kItemCollectionSizeLimitExceeded);
  CHECK(written == 4);  // 4 x 2 x ~104 bytes fit under 1000; a fifth does not
  CHECK(engine.DescribeTable("Events").value().item_count == 4);
  // Other partitions have their own collections; shrinking and deleting always work.
  CHECK(testing::Put(engine, "Events", event("q", 0, 90)).ok());
  CHECK(testing::Put(engine, "Events", event("p", 0, 10)).ok());
  CHECK(testing::Put(engine, "Events", event("p", 4, 60)).ok());  // fits in the space freed
  Item key = {{"pk", S("p")}, {"sk", S("e1")}};
  CHECK(testing::Delete(engine, "Events", key).ok());
  CHECK(testing::Put(engine, "Events", event("p", 5, 90)).ok());
  // Items outside the LSI (no "at") still count in the table part of the collection.
  Item plain = {{"pk", S("p")}, {"sk", S("plain")}, {"pad", S(std::string(500, 'x'))}};
  CHECK(testing::Put(engine, "Events", plain).error().code() ==
        ErrorCode::kItemCollectionSizeLimitExceeded);
}

}  // namespace
}  // namespace ddbd
