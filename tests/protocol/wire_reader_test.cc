// The generated request layer (protocol/generated/requests.h over protocol/wire/reader.h): one
// table of requests with one or several faults at several depths and DynamoDB's exact answer.
// Source of each expected text: AWS (recorded against DynamoDB, ../shared/behaviours-to-match.md
// B6), pinned (what ddbd's black-box suites held before this layer), inferred (follows the rule
// the recorded ones show; not itself recorded).
#include <rapidjson/document.h>

#include <catch2/catch.hpp>
#include <string>

#include "engine/clock.h"
#include "engine/engine.h"
#include "protocol/dispatcher.h"
#include "protocol/generated/requests.h"

namespace ddbd {
namespace {

template <typename Request>
std::string Answer(const std::string& body) {
  rapidjson::Document document;
  document.Parse(body.c_str());
  REQUIRE(document.IsObject());
  Request request;
  Status status = wire::Decode(document, request);
  if (status.ok()) return "ok";
  return std::string(status.error().code() == ErrorCode::kSerialization ? "Serialization: "
                                                                        : "Validation: ") +
         status.error().message();
}

struct Case {
  const char* source;
  std::string body;
  std::string answer;
};

const std::string kReturnValues = "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]";

TEST_CASE("UpdateItem: every failure, in DynamoDB's order of members") {
  const Case cases[] = {
      {"AWS", R"({"TableName":"","ReturnValues":"INVALID","ReturnConsumedCapacity":"INVALID"})",
       "Validation: 4 validation errors detected: Value 'INVALID' at 'returnConsumedCapacity' "
       "failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; "
       "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater "
       "than or equal to 1; Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member "
       "must satisfy enum value set: " +
           kReturnValues +
           "; Value null at 'key' failed to satisfy constraint: Member must not be null"},
      {"AWS",
       R"({"TableName":"abc","AttributeUpdates":{"a":{"Value":{"S":"x"}}},)"
       R"("Expected":{"a":{"Value":{"S":"x"}},"b":{"Value":{"S":"y"}}},"ConditionalOperator":"XOR"})",
       "Validation: 2 validation errors detected: Value 'XOR' at 'conditionalOperator' failed to "
       "satisfy constraint: Member must satisfy enum value set: [OR, AND]; Value null at 'key' "
       "failed to satisfy constraint: Member must not be null"},
      {"inferred", R"({"TableName":"abc","Key":{},"AttributeUpdates":{"a":{"Action":"REPLACE"}}})",
       "Validation: 1 validation error detected: Value 'REPLACE' at "
       "'attributeUpdates.a.member.action' failed to satisfy constraint: Member must satisfy enum "
       "value set: [ADD, PUT, DELETE]"},
      {"pinned",
       R"({"TableName":"abc","Key":{},"AttributeUpdates":{")" + std::string(65536, 'n') +
           R"(":{"Value":{"S":"x"}}}})",
       "Validation: 1 validation error detected: Value at 'attributeUpdates' failed to satisfy "
       "constraint: Map keys must satisfy constraint: [Member must have length less than or equal "
       "to 65535]"},
  };
  for (const Case& c : cases) {
    INFO(c.source << ": " << c.body.substr(0, 200));
    CHECK(Answer<wire::UpdateItemInput>(c.body) == c.answer);
  }
}

TEST_CASE("A plain table name is held to 3-255 characters of [a-zA-Z0-9_.-], an ARN to 1-1024") {
  const Case cases[] = {
      {"pinned", R"({"TableName":"ab","Key":{}})",
       "Validation: 1 validation error detected: Value 'ab' at 'tableName' failed to satisfy "
       "constraint: Member must have length greater than or equal to 3"},
      {"pinned", R"({"TableName":"a!","Key":{}})",
       "Validation: 2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy "
       "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a!' "
       "at 'tableName' failed to satisfy constraint: Member must have length greater than or "
       "equal to 3"},
      {"pinned", R"({"TableName":"arn:aws:dynamodb:us-east-1:1:table/x!","Key":{}})", "ok"},
      {"pinned", R"({"TableName":")" + std::string(256, 'a') + R"(","Key":{}})",
       "Validation: 1 validation error detected: Value '" + std::string(256, 'a') +
           "' at 'tableName' failed to satisfy constraint: Member must have length less than or "
           "equal to 255"},
  };
  for (const Case& c : cases) {
    INFO(c.source << ": " << c.body.substr(0, 200));
    CHECK(Answer<wire::GetItemInput>(c.body) == c.answer);
  }
}

TEST_CASE("CreateTable's KeySchema and AttributeDefinitions are excused by GlobalTableSourceArn") {
  const Case cases[] = {
      {"pinned", R"({"TableName":"Music"})",
       "Validation: 2 validation errors detected: Value null at 'keySchema' failed to satisfy "
       "constraint: Member must not be null; Value null at 'attributeDefinitions' failed to "
       "satisfy constraint: Member must not be null"},
      {"inferred",
       R"({"TableName":"Music","GlobalTableSourceArn":"arn:aws:dynamodb:us-east-2:111111111111:table/Music","GlobalTableSettingsReplicationMode":"ENABLED"})",
       "ok"},
      // Null is absent, as coral reads it: no excuse.
      {"inferred", R"({"TableName":"Music","GlobalTableSourceArn":null})",
       "Validation: 2 validation errors detected: Value null at 'keySchema' failed to satisfy "
       "constraint: Member must not be null; Value null at 'attributeDefinitions' failed to "
       "satisfy constraint: Member must not be null"},
  };
  for (const Case& c : cases) {
    INFO(c.source << ": " << c.body);
    CHECK(Answer<wire::CreateTableInput>(c.body) == c.answer);
  }
}

TEST_CASE("Auto scaling's role ARN is XML text and its policy name printable ASCII") {
  // The patterns are the model's: [\u0020-\uD7FF...\r\n\t]* and \p{Print}+ (Java's POSIX class).
  const Case cases[] = {
      {"model",
       R"({"TableName":"abc","ProvisionedWriteCapacityAutoScalingUpdate":{"AutoScalingRoleArn":"arn:\u00e9\t","ScalingPolicyUpdate":{"PolicyName":"p q~","TargetTrackingScalingPolicyConfiguration":{"TargetValue":1}}}})",
       "ok"},
      {"model",
       R"({"TableName":"abc","ProvisionedWriteCapacityAutoScalingUpdate":{"AutoScalingRoleArn":"a\u0001"}})",
       "Validation: 1 validation error detected: Value 'a\x01' at "
       "'provisionedWriteCapacityAutoScalingUpdate.autoScalingRoleArn' failed to satisfy "
       "constraint: Member must satisfy regular expression pattern: "
       "[\\u0020-\\uD7FF\\uE000-\\uFFFD\\uD800\\uDC00-\\uDBFF\\uDFFF\\r\\n\\t]*"},
      {"model",
       R"({"TableName":"abc","ProvisionedWriteCapacityAutoScalingUpdate":{"ScalingPolicyUpdate":{"PolicyName":"caf\u00e9","TargetTrackingScalingPolicyConfiguration":{"TargetValue":1}}}})",
       "Validation: 1 validation error detected: Value 'caf\xC3\xA9' at "
       "'provisionedWriteCapacityAutoScalingUpdate.scalingPolicyUpdate.policyName' failed to "
       "satisfy constraint: Member must satisfy regular expression pattern: \\p{Print}+"},
  };
  for (const Case& c : cases) {
    INFO(c.source << ": " << c.body.substr(0, 200));
    CHECK(Answer<wire::UpdateTableReplicaAutoScalingInput>(c.body) == c.answer);
  }
}

TEST_CASE("A wrong JSON type anywhere wins over every constraint, the first as sent") {
  const Case cases[] = {
      {"pinned", R"({"ReturnConsumedCapacity":"BAD","TableName":5})",
       "Serialization: NUMBER_VALUE cannot be converted to String"},
      {"pinned", R"({"ConsistentRead":"yes","TableName":5})",
       "Serialization: Unexpected token received from parser"},
      {"pinned", R"({"TableName":"abc","Key":[1]})",
       "Serialization: Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.AttributeValue>"},
      {"pinned", R"({"TableName":"abc","Key":{},"AttributesToGet":"a"})",
       "Serialization: Unexpected field type"},
      {"pinned", R"({"TableName":"abc","Key":{},"AttributesToGet":{}})",
       "Serialization: Start of structure or map found where not expected"},
      {"pinned", R"({"TableName":["abc"]})",
       "Serialization: Unrecognized collection type class java.lang.String"},
      {"pinned", R"({"TableName":"abc","Key":{},"Unknown":[1,{}],"ConsistentRead":null})", "ok"},
  };
  for (const Case& c : cases) {
    INFO(c.source << ": " << c.body);
    CHECK(Answer<wire::GetItemInput>(c.body) == c.answer);
  }
}

TEST_CASE("A list's members and a map's values are checked as one, quoted whole") {
  const std::string long_name(65536, 'n');
  CHECK(Answer<wire::GetItemInput>(R"({"TableName":"abc","Key":{},"AttributesToGet":[")" +
                                   long_name + R"("]})") ==
        "Validation: 1 validation error detected: Value '[" + long_name +
            "]' at 'attributesToGet' failed to satisfy constraint: Member must satisfy "
            "constraint: [Member must have length less than or equal to 65535]");  // pinned
  CHECK(Answer<wire::GetItemInput>(R"({"TableName":"abc","Key":{},"AttributesToGet":[]})") ==
        "Validation: 1 validation error detected: Value '[]' at 'attributesToGet' failed to "
        "satisfy constraint: Member must have length greater than or equal to 1");  // inferred
}

TEST_CASE("Nested members are named by their path: lists by position, maps by key") {
  const std::string table =
      R"("TableName":"abc","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}])";
  const std::string index_key = R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}])";
  const std::string projection = R"("Projection":{"ProjectionType":"ALL"})";
  // AWS: the GSI's failure comes first whatever the order sent (createTable's members by rank).
  CHECK(Answer<wire::CreateTableInput>(
            "{" + table + R"(,"LocalSecondaryIndexes":[{"IndexName":"lx",)" + index_key + "," +
            projection + R"(}],"GlobalSecondaryIndexes":[{"IndexName":"gx",)" + index_key + "," +
            projection + "}]}") ==
        "Validation: 2 validation errors detected: Value 'gx' at "
        "'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must "
        "have length greater than or equal to 3; Value 'lx' at "
        "'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must "
        "have length greater than or equal to 3");
  // Pinned: a projection's NonKeyAttributes, two levels down, checked as one list.
  CHECK(Answer<wire::CreateTableInput>(
            "{" + table + R"(,"GlobalSecondaryIndexes":[{"IndexName":"g1",)" + index_key +
            R"(,"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a",""]}},)" +
            R"({"IndexName":"gsi2",)" + index_key +
            R"(,"Projection":{"ProjectionType":"ALL"}}]})") ==
        "Validation: 2 validation errors detected: Value 'g1' at "
        "'globalSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must "
        "have length greater than or equal to 3; Value '[a, ]' at "
        "'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy "
        "constraint: Member must satisfy constraint: [Member must have length less than or equal "
        "to 255, Member must have length greater than or equal to 1]");
}

TEST_CASE("BatchGetItem's table names are map keys, checked as one with every constraint") {
  const std::string items = R"({"a!b":{"Keys":[{"pk":{"S":"x"}}]}})";
  const std::string keys_failure =
      "Value '" + items +
      "' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: "
      "[Member must have length less than or equal to 255, Member must have length greater than "
      "or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";
  CHECK(Answer<wire::BatchGetItemInput>(R"({"RequestItems":)" + items + "}") ==
        "Validation: 1 validation error detected: " + keys_failure);  // AWS
  CHECK(Answer<wire::BatchGetItemInput>(R"({"RequestItems":)" + items +
                                        R"(,"ReturnConsumedCapacity":"BOGUS"})") ==
        "Validation: 2 validation errors detected: " + keys_failure +
            "; Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member "
            "must satisfy enum value set: [INDEXES, TOTAL, NONE]");  // AWS
}

TEST_CASE("A value quoted in a message is cut at a fixed depth, however deep the request nests") {
  // 200,000 levels: rendering them by recursion, as RapidJSON's Accept does, overflows any
  // thread's stack; the map is quoted with its nesting cut at 64 levels.
  std::string deep = R"({"S":"x"})";
  std::string open;
  std::string close;
  for (int i = 0; i < 200'000; ++i) {
    open += R"({"M":{"a":)";
    close += "}}";
  }
  const std::string body =
      R"({"RequestItems":{"a!b":{"Keys":[{"pk":)" + open + deep + close + "}]}}}";
  rapidjson::Document document;
  document.Parse<rapidjson::kParseIterativeFlag>(body.c_str());
  REQUIRE(document.IsObject());
  wire::BatchGetItemInput request;
  Status status = wire::Decode(document, request);
  REQUIRE(!status.ok());
  const std::string& message = status.error().message();
  CHECK(message.starts_with(R"(1 validation error detected: Value '{"a!b":{"Keys":[{"pk":{"M":)"));
  CHECK(message.find(R"("...")") != std::string::npos);
  CHECK(message.ends_with("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]"));
}

TEST_CASE("TransactWriteItems: the token's failure before the capacity's") {
  const std::string token(37, 't');
  CHECK(Answer<wire::TransactWriteItemsInput>(
            R"({"TransactItems":[{"ConditionCheck":{"TableName":"abc","Key":{},)"
            R"("ConditionExpression":"a = b"}}],"ClientRequestToken":")" +
            token + R"(","ReturnConsumedCapacity":"BOGUS"})") ==
        "Validation: 2 validation errors detected: Value '" + token +
            "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less "
            "than or equal to 36; Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy "
            "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]");  // AWS
}

TEST_CASE("Some members' length and range failures are worded in DynamoDB's newer style") {
  // pinned (test_query_scan_boto3): Query's Limit, named as sent, its value not quoted; Scan's
  // Limit keeps coral's style.
  CHECK(Answer<wire::QueryInput>(R"({"TableName":"abc","Limit":0})") ==
        "Validation: 1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1");
  CHECK(Answer<wire::ScanInput>(R"({"TableName":"abc","Limit":0})") ==
        "Validation: 1 validation error detected: Value '0' at 'limit' failed to satisfy "
        "constraint: Member must have value greater than or equal to 1");
  // AWS: BatchGetItem's RequestItems and each table's Keys.
  CHECK(Answer<wire::BatchGetItemInput>(R"({"RequestItems":{}})") ==
        "Validation: 1 validation error detected: Value at 'RequestItems' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  CHECK(Answer<wire::BatchGetItemInput>(R"({"RequestItems":{"abc":{"Keys":[]}}})") ==
        "Validation: 1 validation error detected: Value at 'RequestItems.abc.member.Keys' failed "
        "to satisfy constraint: Member must have length greater than or equal to 1");
}

// Every served operation, sent an empty body: the required members of its model (with the
// supplement's corrections), each "must not be null", in DynamoDB's order. Inferred from the
// model and the order rule (DeleteItem's key before tableName matches another emulator's
// recording of DynamoDB); the operations whose members are all optional answer normally and are
// not listed.
TEST_CASE("Every operation's required members, in DynamoDB's order") {
  ManualClock clock;
  Engine engine{{}, clock};
  Dispatcher dispatcher{engine};
  struct Row {
    const char* operation;
    const char* message;
  };
  const Row rows[] = {
      {"BatchExecuteStatement",
       "1 validation error detected: Value null at 'statements' failed to satisfy "
       "constraint: Member must not be null"},
      {"BatchGetItem",
       "1 validation error detected: Value null at 'requestItems' failed to satisfy "
       "constraint: Member must not be null"},
      {"BatchWriteItem",
       "1 validation error detected: Value null at 'requestItems' failed to satisfy "
       "constraint: Member must not be null"},
      {"CreateBackup",
       "2 validation errors detected: Value null at 'backupName' failed to satisfy "
       "constraint: Member must not be null; Value null at 'tableName' failed to "
       "satisfy constraint: Member must not be null"},
      {"CreateTable", "The parameter 'TableName' is required but was not present in the request"},
      {"DeleteBackup",
       "1 validation error detected: Value null at 'backupArn' failed to satisfy "
       "constraint: Member must not be null"},
      {"DeleteItem",
       "2 validation errors detected: Value null at 'key' failed to satisfy constraint: "
       "Member must not be null; Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"DeleteResourcePolicy",
       "1 validation error detected: Value null at 'resourceArn' failed to satisfy "
       "constraint: Member must not be null"},
      {"DeleteTable",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"DescribeBackup",
       "1 validation error detected: Value null at 'backupArn' failed to satisfy "
       "constraint: Member must not be null"},
      {"DescribeContinuousBackups",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"DescribeTable",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"DescribeTimeToLive",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"ExecuteStatement",
       "1 validation error detected: Value null at 'statement' failed to satisfy "
       "constraint: Member must not be null"},
      {"ExecuteTransaction",
       "1 validation error detected: Value null at 'transactStatements' failed to "
       "satisfy constraint: Member must not be null"},
      {"GetItem",
       "2 validation errors detected: Value null at 'key' failed to satisfy constraint: "
       "Member must not be null; Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"GetResourcePolicy",
       "1 validation error detected: Value null at 'resourceArn' failed to satisfy "
       "constraint: Member must not be null"},
      {"ListTagsOfResource", "Invalid TableArn"},
      {"PutItem",
       "2 validation errors detected: Value null at 'item' failed to satisfy "
       "constraint: Member must not be null; Value null at 'tableName' failed to "
       "satisfy constraint: Member must not be null"},
      {"PutResourcePolicy",
       "2 validation errors detected: Value null at 'resourceArn' failed to satisfy "
       "constraint: Member must not be null; Value null at 'policy' failed to satisfy "
       "constraint: Member must not be null"},
      {"Query",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"RestoreTableFromBackup",
       "2 validation errors detected: Value null at 'backupArn' failed to satisfy "
       "constraint: Member must not be null; Value null at 'targetTableName' failed to "
       "satisfy constraint: Member must not be null"},
      {"RestoreTableToPointInTime",
       "1 validation error detected: Value null at 'targetTableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"Scan",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"TagResource",
       "1 validation error detected: Value null at 'tags' failed to satisfy constraint: "
       "Member must not be null"},
      {"TransactGetItems",
       "1 validation error detected: Value null at 'transactItems' failed to satisfy "
       "constraint: Member must not be null"},
      {"TransactWriteItems",
       "1 validation error detected: Value null at 'transactItems' failed to satisfy "
       "constraint: Member must not be null"},
      {"UntagResource",
       "1 validation error detected: Value null at 'tagKeys' failed to satisfy "
       "constraint: Member must not be null"},
      {"UpdateContinuousBackups",
       "2 validation errors detected: Value null at 'pointInTimeRecoverySpecification' "
       "failed to satisfy constraint: Member must not be null; Value null at "
       "'tableName' failed to satisfy constraint: Member must not be null"},
      {"UpdateItem",
       "2 validation errors detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null; Value null at 'key' failed to satisfy "
       "constraint: Member must not be null"},
      {"UpdateTable",
       "1 validation error detected: Value null at 'tableName' failed to satisfy "
       "constraint: Member must not be null"},
      {"UpdateTimeToLive",
       "2 validation errors detected: Value null at 'timeToLiveSpecification' failed to "
       "satisfy constraint: Member must not be null; Value null at 'tableName' failed "
       "to satisfy constraint: Member must not be null"},
      {"DescribeStream",
       "1 validation error detected: Value null at 'streamArn' failed to satisfy "
       "constraint: Member must not be null"},
      {"GetRecords",
       "1 validation error detected: Value null at 'shardIterator' failed to satisfy "
       "constraint: Member must not be null"},
      {"GetShardIterator",
       "3 validation errors detected: Value null at 'streamArn' failed to satisfy "
       "constraint: Member must not be null; Value null at 'shardId' failed to satisfy "
       "constraint: Member must not be null; Value null at 'shardIteratorType' failed "
       "to satisfy constraint: Member must not be null"},
  };
  for (const Row& row : rows) {
    INFO(row.operation);
    const bool streams = std::string_view(row.operation) == "DescribeStream" ||
                         std::string_view(row.operation) == "GetRecords" ||
                         std::string_view(row.operation) == "GetShardIterator";
    const std::string target =
        std::string(streams ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.") + row.operation;
    const DispatchResult result = dispatcher.Handle(target, "{}", {.has_authorization = true});
    CHECK(result.http_status == 400);
    CHECK(result.body ==
          R"({"__type":"com.amazon.coral.validate#ValidationException","message":")" +
              std::string(row.message) + R"("})");
  }
}

}  // namespace
}  // namespace ddbd
