#include "engine/engine.h"

#include <catch2/catch.hpp>

#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

CreateTableArgs HashTable(std::string name) { return testing::OnDemandHashTable(std::move(name)); }

template <typename T>
std::string ErrorOf(const Result<T>& result) {
  return result.ok() ? "" : result.error().message();
}

TEST_CASE("CreateTable describes the table it created") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs args = HashTable("Music");
  args.tags = {{"team", "audio"}};
  auto created = engine.CreateTable(args);
  REQUIRE(created.ok());
  const TableDescription& table = created.value();
  CHECK(table.table_name == "Music");
  CHECK(table.table_arn == "arn:aws:dynamodb:us-east-1:000000000000:table/Music");
  CHECK(table.table_id.size() == 36);
  CHECK(table.table_status == TableStatus::kActive);
  CHECK(table.creation_date_time_ms == clock.NowMs());
  CHECK(table.billing_mode == BillingMode::kPayPerRequest);
  CHECK(table.last_update_to_pay_per_request_ms == clock.NowMs());

  auto described = engine.DescribeTable("Music");
  REQUIRE(described.ok());
  CHECK(described.value().table_id == table.table_id);
}

TEST_CASE("CreateTable refuses an existing name") {
  ManualClock clock;
  Engine engine({}, clock);
  REQUIRE(engine.CreateTable(HashTable("Music")).ok());
  auto again = engine.CreateTable(HashTable("Music"));
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().code() == ErrorCode::kResourceInUse);
  CHECK(again.error().message() == "Table already exists: Music");
}

TEST_CASE("CreateTable checks the key schema against the attribute definitions") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs args = HashTable("Music");

  SECTION("a key attribute without definition") {
    args.key_schema = {{"id", KeyType::kHash}};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "Invalid KeySchema: Some index key attribute have no definition");
  }
  SECTION("the same attribute as hash and range key") {
    args.key_schema = {{"pk", KeyType::kHash}, {"pk", KeyType::kRange}};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "Invalid KeySchema: Some index key attribute have no definition");
  }
  SECTION("an unused attribute definition") {
    args.attribute_definitions.push_back({"extra", ScalarAttributeType::kN});
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "One or more parameter values were invalid: Number of attributes in KeySchema does not "
          "exactly match number of attributes defined in AttributeDefinitions");
  }
  SECTION("a range key first") {
    args.key_schema = {{"pk", KeyType::kRange}};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  SECTION("two hash keys") {
    args.attribute_definitions.push_back({"sk", ScalarAttributeType::kN});
    args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kHash}};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
}

TEST_CASE("CreateTable checks billing mode against throughput") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs args = HashTable("Music");
  SECTION("on-demand with throughput") {
    args.provisioned_throughput = ProvisionedThroughput{5, 5};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
          "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  }
  SECTION("provisioned without throughput") {
    args.billing_mode.reset();
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits "
          "must both be specified when BillingMode is PROVISIONED");
  }
  SECTION("throughput out of bounds") {
    args.billing_mode = BillingMode::kProvisioned;
    args.provisioned_throughput = ProvisionedThroughput{1'000'000'000'001, 5};
    CHECK(ErrorOf(engine.CreateTable(args)) ==
          "Given value 1000000000001 for ReadCapacityUnits is out of bounds");
  }
}

TEST_CASE("ListTables pages through names in byte order") {
  ManualClock clock;
  Engine engine({}, clock);
  for (const char* name : {"b-table", "A-table", "a-table", "c-table"}) {
    REQUIRE(engine.CreateTable(HashTable(name)).ok());
  }
  ListTablesResult first = engine.ListTables({std::nullopt, 2});
  CHECK(first.table_names == std::vector<std::string>{"A-table", "a-table"});
  REQUIRE(first.last_evaluated_table_name == "a-table");
  ListTablesResult second = engine.ListTables({first.last_evaluated_table_name, 2});
  CHECK(second.table_names == std::vector<std::string>{"b-table", "c-table"});
  // No LastEvaluatedTableName when nothing follows the page.
  CHECK_FALSE(second.last_evaluated_table_name.has_value());
  CHECK(engine.ListTables({std::string("zzz"), 100}).table_names.empty());
}

TEST_CASE("Tables pass through CREATING, UPDATING and DELETING when a delay is set") {
  ManualClock clock;
  Engine engine({.table_delay_ms = 1000}, clock);
  auto created = engine.CreateTable(HashTable("Music"));
  REQUIRE(created.ok());
  CHECK(created.value().table_status == TableStatus::kCreating);
  CHECK(engine.DeleteTable("Music").error().code() == ErrorCode::kResourceInUse);
  clock.AdvanceMs(1000);
  CHECK(engine.DescribeTable("Music").value().table_status == TableStatus::kActive);

  UpdateTableArgs update;
  update.table_name = "Music";
  update.deletion_protection_enabled = true;
  CHECK(engine.UpdateTable(update).value().table_status == TableStatus::kUpdating);
  clock.AdvanceMs(1000);
  update.deletion_protection_enabled = false;
  REQUIRE(engine.UpdateTable(update).ok());
  clock.AdvanceMs(1000);

  CHECK(engine.DeleteTable("Music").value().table_status == TableStatus::kDeleting);
  CHECK(engine.DescribeTable("Music").value().table_status == TableStatus::kDeleting);
  CHECK(engine.ListTables({}).table_names.size() == 1);
  clock.AdvanceMs(1000);
  CHECK(engine.DescribeTable("Music").error().code() == ErrorCode::kResourceNotFound);
  CHECK(engine.ListTables({}).table_names.empty());
  CHECK(engine.CreateTable(HashTable("Music")).ok());
}

TEST_CASE("DeleteTable honours deletion protection") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs args = HashTable("Music");
  args.deletion_protection_enabled = true;
  REQUIRE(engine.CreateTable(args).ok());
  auto refused = engine.DeleteTable("Music");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kValidation);
  CHECK(refused.error().message() ==
        "Resource cannot be deleted as it is currently protected against deletion. Disable "
        "deletion protection first.");
  CHECK(engine.DescribeTable("Music").ok());
  CHECK(engine.DeleteTable("Nope").error().message() ==
        "Requested resource not found: Table: Nope not found");
}

TEST_CASE("UpdateTable changes billing and throughput as DynamoDB does") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs args = HashTable("Music");
  args.billing_mode.reset();
  args.provisioned_throughput = ProvisionedThroughput{5, 5};
  REQUIRE(engine.CreateTable(args).ok());
  UpdateTableArgs update;
  update.table_name = "Music";

  CHECK(
      ErrorOf(engine.UpdateTable(update))
          .starts_with("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled"));

  update.provisioned_throughput = ProvisionedThroughput{5, 5};
  CHECK(ErrorOf(engine.UpdateTable(update)) ==
        "The provisioned throughput for the table will not change. The requested value equals "
        "the current value. Current ReadCapacityUnits provisioned for the table: 5. Requested "
        "ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned for the table: 5. "
        "Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for "
        "current limits and how to request higher limits.");

  clock.AdvanceMs(10);
  update.provisioned_throughput = ProvisionedThroughput{10, 2};
  auto changed = engine.UpdateTable(update);
  REQUIRE(changed.ok());
  CHECK(changed.value().provisioned_throughput.read_capacity_units == 10);
  CHECK(changed.value().last_increase_date_time_ms == clock.NowMs());
  CHECK(changed.value().last_decrease_date_time_ms == clock.NowMs());
  CHECK(changed.value().number_of_decreases_today == 1);

  update.provisioned_throughput.reset();
  update.billing_mode = BillingMode::kPayPerRequest;
  auto on_demand = engine.UpdateTable(update);
  REQUIRE(on_demand.ok());
  CHECK(on_demand.value().provisioned_throughput.read_capacity_units == 0);
  CHECK(on_demand.value().billing_mode_described);

  update.billing_mode = BillingMode::kProvisioned;
  CHECK(ErrorOf(engine.UpdateTable(update)) ==
        "One or more parameter values were invalid: ProvisionedThroughput must be specified when "
        "BillingMode is PROVISIONED");

  UpdateTableArgs two;
  two.table_name = "Music";
  two.table_class = TableClass::kStandardInfrequentAccess;
  two.deletion_protection_enabled = true;
  CHECK(ErrorOf(engine.UpdateTable(two)) ==
        "One or more parameter values were invalid: TableClass modification must be the only "
        "operation in the request");
}

TEST_CASE("UpdateTable enables and disables streams") {
  ManualClock clock;
  Engine engine({}, clock);
  REQUIRE(engine.CreateTable(HashTable("Music")).ok());
  UpdateTableArgs update;
  update.table_name = "Music";
  update.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  auto enabled = engine.UpdateTable(update);
  REQUIRE(enabled.ok());
  CHECK_FALSE(enabled.value().latest_stream_label.empty());
  CHECK(ErrorOf(engine.UpdateTable(update)) ==
        "Table already has an enabled stream: TableName: Music");
  update.stream_specification = StreamSpecification{false, std::nullopt};
  REQUIRE(engine.UpdateTable(update).ok());
  CHECK(ErrorOf(engine.UpdateTable(update)) == "Table has no stream to disable: TableName: Music");
}

}  // namespace
}  // namespace ddbd
