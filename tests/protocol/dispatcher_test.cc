#include "protocol/dispatcher.h"

#include <catch2/catch.hpp>
#include <string>

#include "engine/engine.h"
#include "protocol/error_response.h"
#include "protocol/validation_messages.h"

namespace ddbd {
namespace {

struct Fixture {
  ManualClock clock;
  Engine engine{{}, clock};
  Dispatcher dispatcher{engine};

  DispatchResult Call(const std::string& operation, const std::string& body) {
    return dispatcher.Handle("DynamoDB_20120810." + operation, body, {.has_authorization = true});
  }
};

std::string Validation(const std::string& message) {
  return R"({"__type":"com.amazon.coral.validate#ValidationException","message":")" + message +
         R"("})";
}

std::string Serialization(const std::string& message) {
  return R"({"__type":"com.amazon.coral.service#SerializationException","Message":")" + message +
         R"("})";
}

constexpr const char* kMusic =
    R"({"TableName":"Music","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
    R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})";

TEST_CASE("The front checks come in DynamoDB's order: JSON, target, authentication") {
  Fixture f;
  const std::string serialization =
      R"({"__type":"com.amazon.coral.service#SerializationException"})";
  const std::string unknown = R"({"__type":"com.amazon.coral.service#UnknownOperationException"})";
  CHECK(f.dispatcher.Handle("Nope", "{", {}).body == serialization);
  CHECK(f.dispatcher.Handle("Nope", "{}", {}).body == unknown);
  CHECK(f.dispatcher.Handle("DynamoDB_20120810.Nope", "{}", {}).body == unknown);
  CHECK(f.dispatcher.Handle("DynamoDB_20111205.ListTables", "{}", {}).body == unknown);
  CHECK(f.dispatcher.Handle("DynamoDB_20120810.ListTables", "{}", {}).body ==
        R"({"__type":"com.amazon.coral.service#MissingAuthenticationTokenException",)"
        R"("message":"Request is missing Authentication Token"})");
  CHECK(f.Call("ListTables", "").body == serialization);
  CHECK(f.Call("ListTables", "[]").body == serialization);
  CHECK(f.Call("ListTables", "{}").body == R"({"TableNames":[]})");
}

TEST_CASE("The served operations are the generated list's: each under its own service's prefix") {
  Fixture f;
  const std::string unknown = R"({"__type":"com.amazon.coral.service#UnknownOperationException"})";
  const RequestInfo signed_request{.has_authorization = true};
  // Served by ddbd, under DynamoDB's prefix and Streams' (protocol/generated/operations.inc).
  CHECK(f.Call("DescribeLimits", "{}").http_status == 200);
  CHECK(f.dispatcher.Handle("DynamoDBStreams_20120810.ListStreams", "{}", signed_request).body ==
        R"({"Streams":[]})");
  // In no model (every operation of DynamoDB's is served now: protocol/model/supplement.json's
  // `unserved` is empty), or under the other service's prefix: unknown.
  CHECK(f.Call("GetInsightRuleReport", "{}").body == unknown);
  CHECK(f.Call("ListStreams", "{}").body == unknown);
  CHECK(f.dispatcher.Handle("DynamoDBStreams_20120810.ListTables", "{}", signed_request).body ==
        unknown);
}

TEST_CASE("A body parsed in place never reads past its end, however its UTF-8 ends") {
  // A lead byte among the last bytes: RapidJSON's UTF-8 check would take the terminating NUL as
  // a continuation byte and read on (AddressSanitizer reported it; the request fuzzer found it).
  // Each is invalid JSON, as DynamoDB's parser says.
  Fixture f;
  const std::string serialization =
      R"({"__type":"com.amazon.coral.service#SerializationException"})";
  for (const std::string tail :
       {"\xc3", "\xe2", "\xe2\x82", "\xf0", "\xf0\x9f", "\xf0\x9f\x98", "\xef\"}", "\xf4\"}"}) {
    for (const std::string head : {R"({"TableName":")", R"({"TableName":"Music")"}) {
      const std::string body = head + tail;
      CHECK(f.Call("DescribeTable", body).body == serialization);
      // Moved, as the server hands it over: nothing but the string's own bytes.
      std::string owned(body.begin(), body.end());
      owned.shrink_to_fit();
      DispatchResult moved;
      f.dispatcher.HandleAsync("DynamoDB_20120810.DescribeTable", std::move(owned),
                               {.has_authorization = true},
                               [&moved](DispatchResult result) { moved = std::move(result); });
      CHECK(moved.body == serialization);
    }
  }
  // A lone surrogate escape, low or high, is not a string (RapidJSON 1.1 would take a low one and
  // keep bytes that are not UTF-8: protocol/json_parse.h); a pair, or an escaped backslash
  // before "u", is.
  for (const std::string escape : {"\\udddd", "\\uDC00x", "\\ud800", "\\ude00\\ud83d"}) {
    CHECK(f.Call("DescribeTable", "{\"TableName\":\"Music\",\"Note\":\"" + escape + "\"}").body ==
          serialization);
  }
  for (const std::string escape : {"\\ud83d\\ude00", "\\\\udddd", "\\u00e9"}) {
    CHECK(f.Call("DescribeTable", "{\"TableName\":\"Music\",\"Note\":\"" + escape + "\"}")
              .body.find("ResourceNotFoundException") != std::string::npos);
  }
  // Multi-byte text that ends well still parses.
  CHECK(f.Call("DescribeTable", "{\"TableName\":\"Music\",\"Note\":\"\xc3\xa9\"}")
            .body.find("ResourceNotFoundException") != std::string::npos);
}

TEST_CASE("Deeply nested JSON is handled without recursion") {
  Fixture f;
  std::string body =
      R"({"TableName":"Music","Tags":)" + std::string(200000, '[') + std::string(200000, ']') + "}";
  CHECK(f.Call("DescribeTable", body).http_status == 400);
}

TEST_CASE("Wrong JSON types are SerializationExceptions with coral's words") {
  Fixture f;
  CHECK(f.Call("DescribeTable", R"({"TableName":12})").body ==
        Serialization("NUMBER_VALUE cannot be converted to String"));
  CHECK(f.Call("DescribeTable", R"({"TableName":1.5})").body ==
        Serialization("DECIMAL_VALUE cannot be converted to String"));
  CHECK(f.Call("DescribeTable", R"({"TableName":true})").body ==
        Serialization("TRUE_VALUE cannot be converted to String"));
  CHECK(f.Call("DescribeTable", R"({"TableName":[]})").body ==
        Serialization("Unrecognized collection type class java.lang.String"));
  CHECK(f.Call("DescribeTable", R"({"TableName":{}})").body ==
        Serialization("Start of structure or map found where not expected"));
  CHECK(f.Call("ListTables", R"({"Limit":"5"})").body ==
        Serialization("STRING_VALUE cannot be converted to Integer"));
  CHECK(f.Call("CreateTable", R"({"KeySchema":"x"})").body ==
        Serialization("Unexpected field type"));
  CHECK(f.Call("CreateTable", R"({"KeySchema":["x"]})").body ==
        Serialization("Unexpected value type in payload"));
  CHECK(f.Call("CreateTable", R"({"ProvisionedThroughput":[]})").body ==
        Serialization("Unrecognized collection type class "
                      "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput"));
  CHECK(f.Call("UpdateTable", R"({"DeletionProtectionEnabled":"yes"})").body ==
        Serialization("Unexpected token received from parser"));
}

// The order of failures is DynamoDB's (scripts/generate-wire's report_order, which gives every
// order recorded against AWS); these were first written in the model's member order, unrecorded.
TEST_CASE("CreateTable reports every constraint failure at once") {
  Fixture f;
  CHECK(f.Call("CreateTable", "{}").body ==
        Validation("The parameter 'TableName' is required but was not present in the request"));
  CHECK(
      f.Call("CreateTable", R"({"TableName":"ab"})").body ==
      Validation("3 validation errors detected: Value null at 'keySchema' failed to satisfy "
                 "constraint: Member must not be null; Value 'ab' at 'tableName' failed to satisfy "
                 "constraint: Member must have length greater than or equal to 3; Value null at "
                 "'attributeDefinitions' failed to satisfy constraint: Member must not be null"));
  const std::string bad_enums =
      R"({"TableName":"Music","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"X"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"INVALID"}],"BillingMode":"FREE"})";
  CHECK(f.Call("CreateTable", bad_enums).body ==
        Validation("3 validation errors detected: Value 'FREE' at 'billingMode' failed to "
                   "satisfy constraint: Member must satisfy enum value set: [PROVISIONED, "
                   "PAY_PER_REQUEST]; Value 'INVALID' at 'keySchema.1.member.keyType' failed to "
                   "satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]; Value "
                   "'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy "
                   "constraint: Member must satisfy enum value set: [B, N, S]"));
  const std::string three_keys =
      R"({"TableName":"Music","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"},)"
      R"({"AttributeName":"extra","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"})";
  CHECK(f.Call("CreateTable", three_keys).body ==
        Validation("1 validation error detected: Value '[KeySchemaElement(attributeName=pk, "
                   "keyType=HASH), KeySchemaElement(attributeName=sk, keyType=RANGE), "
                   "KeySchemaElement(attributeName=extra, keyType=RANGE)]' at 'keySchema' failed "
                   "to satisfy constraint: Member must have length less than or equal to 2"));
  const std::string zero_throughput =
      R"({"TableName":"Music","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
      R"("ProvisionedThroughput":{"ReadCapacityUnits":0}})";
  CHECK(f.Call("CreateTable", zero_throughput).body ==
        Validation("2 validation errors detected: Value null at "
                   "'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
                   "Member must not be null; Value '0' at "
                   "'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member "
                   "must have value greater than or equal to 1"));
}

TEST_CASE("CreateTable and DescribeTable encode the whole TableDescription") {
  Fixture f;
  DispatchResult created = f.Call("CreateTable", kMusic);
  REQUIRE(created.http_status == 200);
  CHECK(created.body.starts_with(
      R"({"TableDescription":{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
      R"("TableName":"Music","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
      R"("TableStatus":"ACTIVE","CreationDateTime":1700000000.0,)"
      R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,)"
      R"("WriteCapacityUnits":0},"TableSizeBytes":0,"ItemCount":0,)"
      R"("TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/Music","TableId":")"));
  CHECK(created.body.ends_with(
      R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST",)"
      R"("LastUpdateToPayPerRequestDateTime":1700000000.0},"DeletionProtectionEnabled":false,)"
      R"("WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,)"
      R"("Status":"ACTIVE"}}})"));
  DispatchResult described = f.Call("DescribeTable", R"({"TableName":"Music"})");
  CHECK(described.body.substr(std::string(R"({"Table":)").size()) ==
        created.body.substr(std::string(R"({"TableDescription":)").size()));
  // A table's ARN names it too.
  CHECK(f.Call("DescribeTable",
               R"({"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/Music"})")
            .http_status == 200);
}

TEST_CASE("Operations on missing tables are ResourceNotFoundExceptions") {
  Fixture f;
  const std::string not_found =
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
      R"("message":"Requested resource not found: Table: Nope not found"})";
  CHECK(f.Call("DescribeTable", R"({"TableName":"Nope"})").body == not_found);
  CHECK(f.Call("DeleteTable", R"({"TableName":"Nope"})").body == not_found);
  CHECK(f.Call("UpdateTable", R"({"TableName":"Nope","BillingMode":"PAY_PER_REQUEST"})").body ==
        not_found);
  CHECK(f.Call("DescribeTable", R"({})").body ==
        Validation("1 validation error detected: Value null at 'tableName' failed to satisfy "
                   "constraint: Member must not be null"));
  CHECK(f.Call("DescribeTable", R"({"TableName":"bad name!"})").body ==
        Validation("1 validation error detected: Value 'bad name!' at 'tableName' failed to "
                   "satisfy constraint: Member must satisfy regular expression pattern: "
                   "[a-zA-Z0-9_.-]+"));
}

TEST_CASE("ListTables validates Limit and ExclusiveStartTableName") {
  Fixture f;
  CHECK(f.Call("ListTables", R"({"Limit":0})").body ==
        Validation("1 validation error detected: Value '0' at 'limit' failed to satisfy "
                   "constraint: Member must have value greater than or equal to 1"));
  CHECK(f.Call("ListTables", R"({"Limit":101,"ExclusiveStartTableName":"a;"})").body ==
        Validation("3 validation errors detected: Value 'a;' at 'exclusiveStartTableName' failed "
                   "to satisfy constraint: Member must satisfy regular expression pattern: "
                   "[a-zA-Z0-9_.-]+; Value 'a;' at 'exclusiveStartTableName' failed to satisfy "
                   "constraint: Member must have length greater than or equal to 3; Value '101' "
                   "at 'limit' failed to satisfy constraint: Member must have value less than or "
                   "equal to 100"));
  REQUIRE(f.Call("CreateTable", kMusic).http_status == 200);
  CHECK(f.Call("ListTables", R"({"Limit":1})").body == R"({"TableNames":["Music"]})");
}

// A limit beyond int64 arrives as a double; converting it was undefined (request_fuzzer).
TEST_CASE("Huge numbers for integer members are clamped, not converted out of range") {
  Fixture f;
  REQUIRE(f.Call("CreateTable", kMusic).http_status == 200);
  CHECK(f.Call("Scan", R"({"TableName":"Music","Limit":199999999999999999999999999999999999999})")
            .body == R"({"Items":[],"Count":0,"ScannedCount":0})");
  CHECK(f.Call("Scan", R"({"TableName":"Music","Limit":-1E38})").http_status == 400);
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

// Issue 34: no error body grows past 128 KiB of message, and a cut never splits a character.
TEST_CASE("Error messages are bounded, cut on a character boundary") {
  CHECK(BoundedMessage("short") == "short");
  const std::string exact(kMaxErrorMessageBytes, 'x');
  CHECK(BoundedMessage(exact) == exact);
  std::string long_text(kMaxErrorMessageBytes - 1, 'x');
  long_text += "\xE2\x82\xAC and more";  // a 3-byte character across the bound
  CHECK(BoundedMessage(long_text) == std::string(kMaxErrorMessageBytes - 1, 'x'));
  const DispatchResult answer = ErrorResponse(Error::Validation(std::string(1 << 20, 'v')));
  CHECK(answer.body.size() < kMaxErrorMessageBytes + 200);
  CHECK(Quoted(std::string(70000, 'q')) == "'" + std::string(65536, 'q') + "...'");
  CHECK(Quoted(std::string(65536, 'q')) == "'" + std::string(65536, 'q') + "'");
  CHECK(Quoted("abc") == "'abc'");
}

}  // namespace
}  // namespace ddbd
