// Every operation that changes data is answered only once its change is on disk (--db-path with
// --sync full): held syncs hold every such answer, whichever operation, and release them all.
// This pins the contract the dispatcher keeps with the engine's log, whatever carries the
// ticket (issue 38 moves it from thread-local state into the outcomes).
#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/persistence/file_system.h"
#include "protocol/dispatcher.h"

namespace ddbd {
namespace {

constexpr std::string_view kHeader =
    "AWS4-HMAC-SHA256 Credential=AKID/20261126/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=host, Signature=00";

struct Step {
  std::string operation;
  std::string body;
};

std::vector<Step> Writes(const std::string& table_arn) {
  return {
      {"PutItem", R"({"TableName":"Tab","Item":{"pk":{"S":"a"},"n":{"N":"1"}}})"},
      {"UpdateItem",
       R"({"TableName":"Tab","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET n = n + :one",)"
       R"("ExpressionAttributeValues":{":one":{"N":"1"}}})"},
      {"DeleteItem", R"({"TableName":"Tab","Key":{"pk":{"S":"a"}}})"},
      {"BatchWriteItem", R"({"RequestItems":{"Tab":[{"PutRequest":{"Item":{"pk":{"S":"b"}}}},)"
                         R"({"PutRequest":{"Item":{"pk":{"S":"c"}}}}]}})"},
      {"TransactWriteItems",
       R"({"TransactItems":[{"Put":{"TableName":"Tab","Item":{"pk":{"S":"d"}}}},)"
       R"({"Delete":{"TableName":"Tab","Key":{"pk":{"S":"b"}}}}]})"},
      {"TransactWriteItems",
       R"({"ClientRequestToken":"token-1","TransactItems":[{"Put":{"TableName":"Tab",)"
       R"("Item":{"pk":{"S":"e"}}}}]})"},
      {"ExecuteStatement", R"({"Statement":"INSERT INTO Tab VALUE {'pk': 'f'}"})"},
      {"BatchExecuteStatement",
       R"({"Statements":[{"Statement":"INSERT INTO Tab VALUE {'pk': 'g'}"},)"
       R"({"Statement":"INSERT INTO Tab VALUE {'pk': 'h'}"}]})"},
      {"ExecuteTransaction",
       R"({"TransactStatements":[{"Statement":"UPDATE Tab SET n = 5 WHERE pk = 'f'"}]})"},
      {"UpdateTable", R"({"TableName":"Tab","StreamSpecification":{"StreamEnabled":true,)"
                      R"("StreamViewType":"NEW_AND_OLD_IMAGES"}})"},
      {"UpdateTimeToLive",
       R"({"TableName":"Tab","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"ttl"}})"},
      {"TagResource", R"({"ResourceArn":")" + table_arn + R"(","Tags":[{"Key":"k","Value":"v"}]})"},
      {"UntagResource", R"({"ResourceArn":")" + table_arn + R"(","TagKeys":["k"]})"},
      {"PutResourcePolicy", R"({"ResourceArn":")" + table_arn + R"(","Policy":"{}"})"},
      {"DeleteResourcePolicy", R"({"ResourceArn":")" + table_arn + R"("})"},
      {"UpdateContinuousBackups", R"({"TableName":"Tab","PointInTimeRecoverySpecification":)"
                                  R"({"PointInTimeRecoveryEnabled":true}})"},
      {"RestoreTableToPointInTime",
       R"({"SourceTableName":"Tab","TargetTableName":"FromPitr","UseLatestRestorableTime":true})"},
      {"DeleteTable", R"({"TableName":"FromPitr"})"},
  };
}

TEST_CASE("Every write is answered only once its log record is synced") {
  ManualClock clock;
  MemoryFileSystem files;
  EngineOptions options;
  options.db_path = "db";
  options.file_system = &files;
  options.pitr_lag_ms = 0;
  auto opened = Engine::Open(options, clock);
  REQUIRE(opened.ok());
  Engine& engine = *opened.value();
  Dispatcher dispatcher(engine);
  const std::string header(kHeader);
  RequestInfo info;
  info.has_authorization = true;
  info.authorization = header;

  auto run = [&](const std::string& operation, const std::string& body, bool held) {
    INFO(operation << " " << body);
    files.HoldSyncs(held);
    std::promise<DispatchResult> answered;
    dispatcher.HandleAsync(
        "DynamoDB_20120810." + operation, body, info,
        [&answered](DispatchResult result) { answered.set_value(std::move(result)); });
    std::future<DispatchResult> answer = answered.get_future();
    if (held) {
      // The handler has returned; its answer waits for the sync.
      CHECK(answer.wait_for(std::chrono::milliseconds(20)) == std::future_status::timeout);
      files.HoldSyncs(false);
    }
    DispatchResult result = answer.get();
    INFO(result.body);
    CHECK(result.http_status == 200);
    return result.body;
  };

  const std::string created = run("CreateTable",
                                  R"({"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",)"
                                  R"("AttributeDefinitions":[{"AttributeName":"pk",)"
                                  R"("AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk",)"
                                  R"("KeyType":"HASH"}]})",
                                  true);
  const size_t arn_at = created.find("arn:aws:dynamodb:");
  REQUIRE(arn_at != std::string::npos);
  const std::string table_arn = created.substr(arn_at, created.find('"', arn_at) - arn_at);
  for (const Step& step : Writes(table_arn)) {
    if (step.operation == "RestoreTableToPointInTime") clock.AdvanceMs(1000);
    run(step.operation, step.body, true);
  }
  // A backup is its own synced file; a restore from it is logged like any write.
  const std::string backup =
      run("CreateBackup", R"({"TableName":"Tab","BackupName":"backup"})", false);
  const size_t backup_at = backup.find("arn:aws:dynamodb:");
  REQUIRE(backup_at != std::string::npos);
  const std::string backup_arn = backup.substr(backup_at, backup.find('"', backup_at) - backup_at);
  run("RestoreTableFromBackup",
      R"({"TargetTableName":"FromBackup","BackupArn":")" + backup_arn + R"("})", true);
  // (Deleting a table with point-in-time recovery writes and syncs its SYSTEM backup file on the
  // calling thread first, so that one is not run with syncs held.)
  run("DeleteTable", R"({"TableName":"Tab"})", false);
  // A read is answered at once, held syncs or not.
  files.HoldSyncs(true);
  std::promise<DispatchResult> answered;
  dispatcher.HandleAsync(
      "DynamoDB_20120810.ListTables", "{}", info,
      [&answered](DispatchResult result) { answered.set_value(std::move(result)); });
  CHECK(answered.get_future().wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  files.HoldSyncs(false);
}

}  // namespace
}  // namespace ddbd
