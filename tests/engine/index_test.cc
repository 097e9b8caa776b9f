#include <catch2/catch.hpp>

#include "engine/engine.h"

namespace ddbd {
namespace {

AttributeValue S(std::string text) { return AttributeValue::String(std::move(text)); }

struct Fixture {
  ManualClock clock;
  Engine engine{{}, clock};

  Fixture() {
    CreateTableArgs args;
    args.table_name = "Orders";
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                  {"sk", ScalarAttributeType::kS},
                                  {"status", ScalarAttributeType::kS},
                                  {"region", ScalarAttributeType::kS}};
    args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    args.billing_mode = BillingMode::kPayPerRequest;
    IndexDefinition by_status{"by-status", {{"status", KeyType::kHash}}, {}, std::nullopt};
    by_status.projection.projection_type = ProjectionType::kKeysOnly;
    IndexDefinition by_region{
        "by-region", {{"pk", KeyType::kHash}, {"region", KeyType::kRange}}, {}, std::nullopt};
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
    for (const Item& item : page.value().items) keys.push_back(FindAttribute(item, "sk")->scalar);
    return keys;
  }

  int64_t IndexCount(size_t index) {
    return engine.DescribeTable("Orders").value().indexes[index].item_count;
  }
};

TEST_CASE("Every write path keeps the indexes in step") {
  Fixture f;
  Item order = {{"pk", S("c1")}, {"sk", S("o1")}, {"status", S("open")}, {"region", S("eu")}};
  REQUIRE(f.engine.PutItem("Orders", order, {}).ok());
  CHECK(f.InIndex("by-status", "status", "open") == std::vector<std::string>{"o1"});
  CHECK(f.InIndex("by-region", "pk", "c1") == std::vector<std::string>{"o1"});

  // Replacing moves the entry.
  order[2].second = S("shipped");
  REQUIRE(f.engine.PutItem("Orders", order, {}).ok());
  CHECK(f.InIndex("by-status", "status", "open").empty());
  CHECK(f.InIndex("by-status", "status", "shipped") == std::vector<std::string>{"o1"});

  // UpdateItem: REMOVE of an index key takes the item out (sparse index).
  UpdateAction remove;
  remove.kind = UpdateAction::Kind::kRemove;
  remove.path = {{"status", -1}};
  Item key = {{"pk", S("c1")}, {"sk", S("o1")}};
  REQUIRE(f.engine.UpdateItem("Orders", key, {remove}, {}, Engine::UpdateReturn::kNone).ok());
  CHECK(f.InIndex("by-status", "status", "shipped").empty());
  CHECK(f.IndexCount(1) == 0);
  CHECK(f.IndexCount(0) == 1);

  // BatchWriteItem puts and deletes.
  std::vector<WriteRequest> writes = {{"Orders",
                                       WriteRequest::Kind::kPut,
                                       {{"pk", S("c2")}, {"sk", S("o2")}, {"status", S("open")}}},
                                      {"Orders", WriteRequest::Kind::kDelete, key}};
  REQUIRE(f.engine.BatchWriteItem(writes).ok());
  CHECK(f.InIndex("by-status", "status", "open") == std::vector<std::string>{"o2"});
  CHECK(f.InIndex("by-region", "pk", "c1").empty());
  CHECK(f.IndexCount(0) == 0);

  // DeleteItem removes its entries.
  REQUIRE(f.engine.DeleteItem("Orders", {{"pk", S("c2")}, {"sk", S("o2")}}, {}).ok());
  CHECK(f.InIndex("by-status", "status", "open").empty());
  CHECK(f.IndexCount(1) == 0);
}

TEST_CASE("Equal index keys keep every item, ordered by table key") {
  Fixture f;
  for (const char* sk : {"b", "a", "c"}) {
    REQUIRE(f.engine.PutItem("Orders", {{"pk", S("c1")}, {"sk", S(sk)}, {"status", S("open")}}, {})
                .ok());
  }
  CHECK(f.InIndex("by-status", "status", "open").size() == 3);
  CHECK(f.InIndex("by-status", "status", "open") == f.InIndex("by-status", "status", "open"));
}

TEST_CASE("A condition failure or an index key of the wrong type changes no index") {
  Fixture f;
  Item bad = {{"pk", S("c1")}, {"sk", S("o1")}, {"status", AttributeValue::Number("1")}};
  auto refused = f.engine.PutItem("Orders", bad, {});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message() ==
        "One or more parameter values were invalid: Type mismatch for Index Key status Expected: S "
        "Actual: N IndexName: by-status");
  CHECK(f.IndexCount(1) == 0);
}

}  // namespace
}  // namespace ddbd
