#include "protocol/request_summary.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

TEST_CASE("The access log's summary names the tables and the capacity an answer reports") {
  CHECK(RequestTables(R"({"TableName":"Orders","Key":{}})") == "Orders");
  const auto single =
      ConsumedCapacityUnits(R"({"ConsumedCapacity":{"TableName":"Orders","CapacityUnits":0.5}})");
  REQUIRE(single);
  CHECK(*single == 0.5);
  CHECK(RequestTables(R"({"RequestItems":{"A1x":{},"B2y":{}}})") == "A1x,B2y");
  CHECK(ConsumedCapacityUnits(
            R"({"ConsumedCapacity":[{"CapacityUnits":1},{"CapacityUnits":2}]})") == 3);
  CHECK(RequestTables("").empty());
  CHECK(!ConsumedCapacityUnits("<UnknownOperationException/>"));
  CHECK(!ConsumedCapacityUnits("{}"));
  CHECK(RequestTables(R"({"TableName":7})").empty());
}

TEST_CASE("The access log's summary reads any nesting without recursing") {
  // A client's body nested a million levels: the dispatcher refuses it, the log still reads it.
  const std::string deep =
      "{\"a\":" + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}";
  CHECK(RequestTables(deep).empty());
  CHECK(!ConsumedCapacityUnits(deep));
  const std::string open = "{\"TableName\":\"T\",\"a\":" + std::string(1'000'000, '{');
  CHECK(RequestTables(open).empty());  // not JSON: nothing read
}

}  // namespace
}  // namespace ddbd
