// The generated response writers (protocol/generated/responses.h): member names as the model
// spells them, values typed by the model, nesting always balanced, and json::Double writing
// DynamoDB's number forms.
#include <catch2/catch.hpp>
#include <string>

#include "protocol/generated/responses.h"

namespace ddbd {
namespace {

template <class T, class F>
std::string Written(F&& write) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  wire::Write<T>(writer, write);
  return std::string(buffer.GetString(), buffer.GetSize());
}

TEST_CASE("A structure's members: names as the model spells them, enums as sent") {
  CHECK(Written<wire::out::TableDescription>([](auto& out) {
          out.TableName("Orders");
          out.TableStatus(wire::TableStatus::kActive);
          out.ItemCount(3);
          out.DeletionProtectionEnabled(false);
          out.CreationDateTime(1700000000123);
        }) == R"({"TableName":"Orders","TableStatus":"ACTIVE","ItemCount":3,)"
              R"("DeletionProtectionEnabled":false,"CreationDateTime":1700000000.123})");
  // DynamoDB Streams' members are lowerCamel in the model, and written so.
  CHECK(Written<wire::out::StreamsRecord>([](auto& out) {
          out.eventName(wire::OperationType::kModify);
          out.awsRegion("us-east-1");
        }) == R"({"eventName":"MODIFY","awsRegion":"us-east-1"})");
}

TEST_CASE("Nested structures, lists and maps close themselves, map keys are escaped") {
  CHECK(Written<wire::out::ConsumedCapacity>([](auto& out) {
          out.TableName("T");
          out.Table([](wire::out::Capacity& table) { table.CapacityUnits(1); });
          out.GlobalSecondaryIndexes([](wire::out::SecondaryIndexesCapacityMap& map) {
            map.Add("a\"b", [](wire::out::Capacity& index) { index.CapacityUnits(0.5); });
            map.Add("c", [](wire::out::Capacity&) {});
          });
        }) == R"({"TableName":"T","Table":{"CapacityUnits":1.0},)"
              R"("GlobalSecondaryIndexes":{"a\"b":{"CapacityUnits":0.5},"c":{}}})");
  CHECK(Written<wire::out::ListTablesOutput>([](auto& out) {
          out.TableNames([](wire::out::TableNameList& names) {
            names.Add("a");
            names.Add("b");
          });
          out.LastEvaluatedTableName("b");
        }) == R"({"TableNames":["a","b"],"LastEvaluatedTableName":"b"})");
  CHECK(Written<wire::out::ListTablesOutput>([](auto& out) {
          out.TableNames([](wire::out::TableNameList&) {});
        }) == R"({"TableNames":[]})");
}

TEST_CASE("Attribute values are the caller's to write, straight into the JSON writer") {
  CHECK(Written<wire::out::GetItemOutput>([](auto& out) {
          out.Item([](json::Writer& writer) {
            writer.StartObject();
            writer.Key("pk");
            writer.StartObject();
            writer.Key("S");
            writer.String("x");
            writer.EndObject();
            writer.EndObject();
          });
        }) == R"({"Item":{"pk":{"S":"x"}}})");
}

TEST_CASE("Doubles as DynamoDB writes them: halves by the short path, the rest by RapidJSON's") {
  const auto units = [](double value) {
    return Written<wire::out::Capacity>([&](auto& out) { out.CapacityUnits(value); });
  };
  CHECK(units(0) == R"({"CapacityUnits":0.0})");
  CHECK(units(1) == R"({"CapacityUnits":1.0})");
  CHECK(units(2.5) == R"({"CapacityUnits":2.5})");
  CHECK(units(123456789012.5) == R"({"CapacityUnits":123456789012.5})");
  CHECK(units(0.25) == R"({"CapacityUnits":0.25})");
  CHECK(units(-1) == R"({"CapacityUnits":-1.0})");
  CHECK(units(1e15) == R"({"CapacityUnits":1000000000000000.0})");
  CHECK(units(1e22) == R"({"CapacityUnits":1e22})");
}

TEST_CASE("Every enum value is written as the model spells it") {
  CHECK(wire::Text(wire::ReturnValue::kUpdatedNew) == "UPDATED_NEW");
  CHECK(wire::Text(wire::BatchStatementErrorCodeEnum::kConditionalCheckFailed) ==
        "ConditionalCheckFailed");
  CHECK(wire::Text(wire::TableClass::kStandardInfrequentAccess) == "STANDARD_INFREQUENT_ACCESS");
  CHECK(wire::Text(wire::SSEType::kAes256) == "AES256");
  CHECK(wire::Text(wire::ScalarAttributeType::kB) == "B");
}

}  // namespace
}  // namespace ddbd
