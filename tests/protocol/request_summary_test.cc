#include "protocol/request_summary.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

TEST_CASE("The access log's summary names the tables and the capacity an answer reports") {
  RequestSummary single =
      Summarize(R"({"TableName":"Orders","Key":{}})",
                R"({"ConsumedCapacity":{"TableName":"Orders","CapacityUnits":0.5}})");
  CHECK(single.table == "Orders");
  REQUIRE(single.consumed_capacity);
  CHECK(*single.consumed_capacity == 0.5);
  RequestSummary batch =
      Summarize(R"({"RequestItems":{"A1x":{},"B2y":{}}})",
                R"({"ConsumedCapacity":[{"CapacityUnits":1},{"CapacityUnits":2}]})");
  CHECK(batch.table == "A1x,B2y");
  CHECK(*batch.consumed_capacity == 3);
  RequestSummary none = Summarize("", "<UnknownOperationException/>");
  CHECK(none.table.empty());
  CHECK(!none.consumed_capacity);
  CHECK(Summarize(R"({"TableName":7})", "{}").table.empty());
}

TEST_CASE("The access log's summary reads any nesting without recursing") {
  // A client's body nested a million levels: the dispatcher refuses it, the log still reads it.
  const std::string deep =
      "{\"a\":" + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}";
  CHECK(Summarize(deep, deep).table.empty());
  const std::string open = "{\"TableName\":\"T\",\"a\":" + std::string(1'000'000, '{');
  CHECK(Summarize(open, "").table.empty());  // not JSON: nothing read
}

}  // namespace
}  // namespace ddbd
