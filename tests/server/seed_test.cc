#include "server/tools/seed.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

TEST_CASE("A seed table file is CreateTable's request, with TTL taken out") {
  auto table = ReadSeedTable("T.table.json", R"({"TableName":"T","BillingMode":"PAY_PER_REQUEST",
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}})");
  REQUIRE(table.ok());
  CHECK(table.value().table_name == "T");
  CHECK(table.value().create_table ==
        R"({"TableName":"T","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk",)"
        R"("KeyType":"HASH"}]})");
  CHECK(table.value().update_time_to_live ==
        R"({"TableName":"T","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}})");
}

TEST_CASE("A seed table file may be describe-table's output, or its Table alone") {
  const std::string described =
      R"({"TableName":"U","TableStatus":"ACTIVE","ItemCount":3,)"
      R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},)"
      R"("ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":0},)"
      R"("AttributeDefinitions":[],"KeySchema":[],)"
      R"("GlobalSecondaryIndexes":[{"IndexName":"G","KeySchema":[],"Projection":{},)"
      R"("IndexStatus":"ACTIVE","ProvisionedThroughput":{"ReadCapacityUnits":0}}]})";
  const std::string expected =
      R"({"TableName":"U","AttributeDefinitions":[],"KeySchema":[],)"
      R"("BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"G",)"
      R"("KeySchema":[],"Projection":{}}]})";
  auto bare = ReadSeedTable("U.table.json", described);
  REQUIRE(bare.ok());
  CHECK(bare.value().create_table == expected);
  auto wrapped =
      ReadSeedTable("U.table.json", R"({"Table":)" + described +
                                        R"(,"TimeToLiveDescription":{)"
                                        R"("TimeToLiveStatus":"ENABLED","AttributeName":"e"},)"
                                        R"("Tags":[{"Key":"k","Value":"v"}]})");
  REQUIRE(wrapped.ok());
  CHECK(wrapped.value().create_table ==
        expected.substr(0, expected.size() - 1) + R"(,"Tags":[{"Key":"k","Value":"v"}]})");
  CHECK(wrapped.value().update_time_to_live.has_value());
}

TEST_CASE("Seed table files that are not JSON or lack a name say where") {
  CHECK(ReadSeedTable("x.table.json", "{\n\n  \"TableName\": }").error().message() ==
        "x.table.json:3: not JSON: Invalid value.");
  CHECK(ReadSeedTable("x.table.json", "[]").error().message() ==
        "x.table.json:1: expected a JSON object");
  CHECK(ReadSeedTable("x.table.json", "{}").error().message() ==
        "x.table.json:1: TableName: expected the table's name, a string");
}

TEST_CASE("Seed item lines: DynamoDB JSON as it is, S3 export lines unwrapped, blanks skipped") {
  CHECK(SeedItemJson(R"({"pk":{"S":"a"}})").value() == R"({"pk":{"S":"a"}})");
  CHECK(SeedItemJson(R"( {"Item": {"pk":{"S":"a"}}})").value() == R"({"pk":{"S":"a"}})");
  // An attribute called Item holding one value is an item, not an export line.
  CHECK(SeedItemJson(R"({"Item":{"S":"x"}})").value() == R"({"Item":{"S":"x"}})");
  CHECK(SeedItemJson(R"({"Item":{"M":{"a":{"S":"x"}}}})").value() ==
        R"({"Item":{"M":{"a":{"S":"x"}}}})");
  CHECK(!SeedItemJson("  \r").value().has_value());
  // Unwrapped through the writer that escapes every control byte (RapidJSON's StringBuffer
  // writer leaves U+001A-U+001F raw with SSE2).
  CHECK(SeedItemJson(R"({"Item":{"s":{"S":"\u001b\u001f"}}})").value() ==
        R"({"s":{"S":"\u001B\u001F"}})");
  CHECK(SeedItemJson("[1]").error().message() == "expected an item, a JSON object");
  CHECK(SeedItemJson(R"({"Item": [)").error().message() == "not JSON: Invalid value.");
}

TEST_CASE("Seed files nested past the bound are refused before anything recurses over them") {
  CHECK(JsonDepth(R"({"a":[{"b":"[[[[{{"}]})") == 3);  // brackets in strings do not count
  CHECK(JsonDepth(R"("\"[[")") == 0);
  const std::string deep = "{\"a\":" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  // A plain item line goes to PutItem as it is (the dispatcher's parser has its own bound); an
  // export line is read here, so it is checked.
  CHECK(SeedItemJson(deep).value() == deep);
  const std::string exported = "{\"Item\":" + deep + "}";
  CHECK(SeedItemJson(exported).error().message() == "nested deeper than 200 levels");
  CHECK(ReadSeedTable("t.table.json", deep).error().message() ==
        "t.table.json:1: nested deeper than 200 levels");
}

}  // namespace
}  // namespace ddbd
