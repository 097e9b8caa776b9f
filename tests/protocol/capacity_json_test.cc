#include "protocol/capacity_json.h"

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

std::string Encoded(const ConsumedCapacity& consumed, ReturnConsumedCapacity mode) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  wire::Write<wire::out::ConsumedCapacity>(writer, [&](wire::out::ConsumedCapacity& out) {
    EncodeConsumedCapacity(out, consumed, mode);
  });
  return std::string(buffer.GetString(), buffer.GetSize());
}

ConsumedCapacity Sample(std::string table_name) {
  ConsumedCapacity consumed;
  consumed.table_name = std::move(table_name);
  consumed.table_units = 1;
  consumed.AddIndex("by-status", true, 2);
  consumed.AddIndex("by-date", false, 0.5);
  return consumed;
}

TEST_CASE("ConsumedCapacity as DynamoDB writes it: TOTAL and INDEXES, units as 1.0 or 0.5") {
  CHECK(Encoded(Sample("Orders"), ReturnConsumedCapacity::kTotal) ==
        R"({"TableName":"Orders","CapacityUnits":3.5})");
  CHECK(Encoded(Sample("Orders"), ReturnConsumedCapacity::kIndexes) ==
        R"({"TableName":"Orders","CapacityUnits":3.5,"Table":{"CapacityUnits":1.0},)"
        R"("LocalSecondaryIndexes":{"by-date":{"CapacityUnits":0.5}},)"
        R"("GlobalSecondaryIndexes":{"by-status":{"CapacityUnits":2.0}}})");
}

TEST_CASE("A name JSON must escape is escaped (the writer's path gives the same shape)") {
  CHECK(Encoded(Sample("a\"b"), ReturnConsumedCapacity::kIndexes) ==
        R"({"TableName":"a\"b","CapacityUnits":3.5,"Table":{"CapacityUnits":1.0},)"
        R"("LocalSecondaryIndexes":{"by-date":{"CapacityUnits":0.5}},)"
        R"("GlobalSecondaryIndexes":{"by-status":{"CapacityUnits":2.0}}})");
}

}  // namespace
}  // namespace ddbd
