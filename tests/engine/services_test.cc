// The engine's features as services (issue 38): each is given the catalog and what else it uses,
// never the engine, so each is made and driven here on its own, with no Engine at all.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/model/item_codec.h"
#include "engine/model/item_key.h"
#include "engine/storage/held_items.h"
#include "engine/streams/stream_directory.h"
#include "engine/tables/table_operations.h"
#include "engine/tags/tag_operations.h"
#include "engine/ttl/ttl_sweeper.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

CreateTableArgs ServicesOrders() { return testing::OnDemandHashTable("Orders"); }

// Puts `item` through the table's commit path, as the item calls do.
void ServicesPut(const ItemTable& table, const Item& item) {
  auto key = ItemKeyBytes(table.key_shape, item, KeyMismatchStyle::kTypeMismatch);
  REQUIRE(key.ok());
  const std::string blob = EncodeItem(item);
  REQUIRE(
      testing::PutInto(*table.items, key.value(), {blob, static_cast<uint32_t>(blob.size())}).ok());
}

TEST_CASE("The catalog stands alone: tables made, found, changed and deleted through it") {
  const EngineOptions options;
  ManualClock clock;
  Catalog catalog(options, clock);
  REQUIRE(CreateTable(catalog, ServicesOrders()).ok());
  CHECK(CreateTable(catalog, ServicesOrders()).error().message() == "Table already exists: Orders");
  REQUIRE(catalog.FindItemTable("Orders").ok());
  CHECK(catalog.Describe("Orders")->table_arn ==
        "arn:aws:dynamodb:us-east-1:000000000000:table/Orders");
  CHECK(ListTables(catalog, {}).table_names == std::vector<std::string>{"Orders"});

  // A feature that keeps state in the description is given the catalog as TableMetadata.
  REQUIRE(TagResource(catalog, {catalog.TableArn("Orders"), {{"team", "a"}}}).ok());
  auto tags = ListTagsOfResource(catalog, {catalog.TableArn("Orders"), std::nullopt});
  REQUIRE(tags.ok());
  REQUIRE(tags.value().tags.size() == 1);
  CHECK(tags.value().tags[0].value == "a");

  auto deleted = DeleteTable(catalog, "Orders");
  REQUIRE(deleted.ok());
  CHECK(deleted.value().outcome.table_status == TableStatus::kDeleting);
  CHECK(deleted.value().items != nullptr);  // what a SYSTEM backup would copy
  CHECK(catalog.FindItemTable("Orders").error().message() == "Requested resource not found");
  CHECK(DescribeTable(catalog, "Orders").error().message() ==
        "Requested resource not found: Table: Orders not found");
}

TEST_CASE("Time to Live is a service over the catalog and the held items") {
  const EngineOptions options;
  ManualClock clock;
  Catalog catalog(options, clock);
  HeldItems held;
  TimeToLive time_to_live(catalog, held);
  REQUIRE(CreateTable(catalog, ServicesOrders()).ok());
  auto table = catalog.FindItemTable("Orders");
  REQUIRE(table.ok());
  const int64_t now_s = clock.NowMs() / 1000;
  ServicesPut(table.value(), {{"pk", AttributeValue::String("gone")},
                              {"ttl", AttributeValue::Number(std::to_string(now_s - 10))}});
  ServicesPut(table.value(), {{"pk", AttributeValue::String("held")},
                              {"ttl", AttributeValue::Number(std::to_string(now_s - 10))}});
  ServicesPut(table.value(), {{"pk", AttributeValue::String("later")},
                              {"ttl", AttributeValue::Number(std::to_string(now_s + 3600))}});

  REQUIRE(time_to_live.Update({"Orders", {"ttl", true}}).ok());
  CHECK(time_to_live.Describe("Orders").value().enabled);
  CHECK(time_to_live.Update({"Orders", {"ttl", true}}).error().message() ==
        "TimeToLive is already enabled");

  auto held_key = ItemKeyBytes(table.value().key_shape, {{"pk", AttributeValue::String("held")}},
                               KeyMismatchStyle::kTypeMismatch);
  REQUIRE(held_key.ok());
  held.Hold(table.value().items->id(), held_key.value(), 7);
  CHECK(time_to_live.SweepExpired(100) == 1);  // the held item waits
  held.Release(table.value().items->id(), held_key.value());
  CHECK(time_to_live.SweepExpired(100) == 1);
  CHECK(time_to_live.SweepExpired(100) == 0);
  CHECK(table.value().items->item_count() == 1);
}

TEST_CASE("The stream directory finds streams by ARN and lists them in order") {
  ManualClock clock;
  StreamDirectory streams;
  for (const char* label : {"b", "a"}) {
    TableStream::Settings settings;
    settings.summary = {std::string("arn:x/stream/") + label, "T", label};
    streams.Add(std::make_shared<TableStream>(std::move(settings), clock));
  }
  CHECK(streams.Contains("arn:x/stream/a"));
  CHECK(streams.Find("arn:x/stream/c") == nullptr);
  std::vector<std::string> listed;
  streams.Walk(std::string("arn:x/stream/a"), [&](const std::shared_ptr<TableStream>& stream) {
    listed.push_back(stream->summary().stream_arn);
    return true;
  });
  CHECK(listed == std::vector<std::string>{"arn:x/stream/b"});
  CHECK(streams.All().size() == 2);
}

}  // namespace
}  // namespace ddbd
