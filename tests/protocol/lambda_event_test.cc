// Stream triggers on the wire (protocol/lambda_event.h, protocol/event_filter.h): a record of
// Lambda's DynamoDB event exactly, how function answers are read (partial batch responses by
// Lambda's rules), the failure destination's record, and filter patterns.
#include "protocol/lambda_event.h"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include "engine/model/item_codec.h"
#include "protocol/event_filter.h"
#include "tests/values.h"

namespace ddbd {
namespace {

constexpr char kStream[] =
    "arn:aws:dynamodb:eu-west-1:000000000000:table/T/stream/2026-12-01T00:00:00.000";

StreamTriggerBatch Batch() {
  StreamTriggerBatch batch;
  batch.stream_arn = kStream;
  batch.shard_id = "shardId-00000001764547200000-0a1b2c3d";
  batch.region = "eu-west-1";
  batch.view_type = StreamViewType::kNewAndOldImages;
  for (uint64_t sequence : {uint64_t{100}, uint64_t{101}, uint64_t{102}}) {
    StreamRecord record;
    record.sequence = sequence;
    record.created_ms = 1'764'547'200'500 + static_cast<int64_t>(sequence);
    record.kind = ChangeKind::kModify;
    record.keys = EncodeItem({{"pk", S("a")}});
    record.old_image = EncodeItem({{"pk", S("a")}, {"n", N("1")}});
    record.new_image = EncodeItem({{"pk", S("a")}, {"n", N("2")}});
    record.old_size = record.new_size =
        static_cast<uint32_t>(ItemSize(DecodeItem(record.new_image)));
    batch.records.push_back(record);
  }
  return batch;
}

TEST_CASE("A record is Lambda's DynamoDB event record, in its members' order") {
  StreamTriggerBatch batch = Batch();
  const StreamRecord& record = batch.records[0];
  const std::string sequence = SequenceNumberText(100);
  CHECK(StreamTriggerRecordJson(record, batch) ==
        R"({"eventID":")" + EventId(kStream, 100) +
            R"(","eventName":"MODIFY","eventVersion":"1.1","eventSource":"aws:dynamodb",)"
            R"("awsRegion":"eu-west-1","dynamodb":{"ApproximateCreationDateTime":1764547200,)"
            R"("Keys":{"pk":{"S":"a"}},"NewImage":{"pk":{"S":"a"},"n":{"N":"2"}},)"
            R"("OldImage":{"pk":{"S":"a"},"n":{"N":"1"}},"SequenceNumber":")" +
            sequence +
            R"(","SizeBytes":15,"StreamViewType":"NEW_AND_OLD_IMAGES"},"eventSourceARN":")" +
            kStream + R"("})");
  StreamRecord ttl = record;
  ttl.kind = ChangeKind::kRemove;
  ttl.by_time_to_live = true;
  ttl.new_image.clear();
  batch.view_type = StreamViewType::kOldImage;
  const std::string text = StreamTriggerRecordJson(ttl, batch);
  CHECK(text.find(R"("eventName":"REMOVE")") != std::string::npos);
  CHECK(text.find(R"("StreamViewType":"OLD_IMAGE")") != std::string::npos);
  CHECK(text.ends_with(
      R"(,"userIdentity":{"type":"Service","principalId":"dynamodb.amazonaws.com"}})"));
  CHECK(StreamTriggerEvent({"{}", "{\"a\":1}"}) == R"({"Records":[{},{"a":1}]})");
}

TEST_CASE("A function's answer: success, failure, not reached, partial batch responses") {
  using Result = StreamTriggerOutcome::Result;
  const StreamTriggerBatch batch = Batch();
  const std::string second = SequenceNumberText(101);
  const std::string third = SequenceNumberText(102);
  auto read = [&](int status, bool error, std::string body, bool report = true) {
    return ReadFunctionAnswer(status, error, std::move(body), report, batch);
  };
  CHECK(read(200, false, "").result == Result::kSuccess);
  CHECK(read(200, false, "null").result == Result::kSuccess);
  CHECK(read(200, false, "{}").result == Result::kSuccess);
  CHECK(read(202, false, R"("done")").result == Result::kSuccess);
  CHECK(read(200, false, R"({"batchItemFailures":[]})").result == Result::kSuccess);
  CHECK(read(200, false, R"({"batchItemFailures":null})").result == Result::kSuccess);
  CHECK_FALSE(read(200, false, R"({"batchItemFailures":[]})").first_failure);
  // Failed: marked by the Invoke API, a 500, a runtime's error document.
  CHECK(read(200, true, R"({"errorMessage":"x"})").result == Result::kFunctionError);
  CHECK(read(500, false, "boom").result == Result::kFunctionError);
  CHECK(read(200, false, R"({"errorMessage":"x","errorType":"Error"})").result ==
        Result::kFunctionError);
  // Not reached.
  for (int status : {404, 429, 502, 503}) {
    INFO(status);
    CHECK(read(status, false, "").result == Result::kUnreachable);
  }
  // Partial: the lowest sequence number named.
  const auto partial = read(200, false,
                            R"({"batchItemFailures":[{"itemIdentifier":")" + third +
                                R"("},{"itemIdentifier":")" + second + R"("}]})");
  CHECK(partial.result == Result::kSuccess);
  CHECK(partial.first_failure == std::optional<uint64_t>(101));
  // Not read without ReportBatchItemFailures.
  CHECK_FALSE(
      read(200, false, R"({"batchItemFailures":[{"itemIdentifier":")" + second + "\"}]}", false)
          .first_failure);
  // A whole failure: empty, null or misnamed identifiers, one naming no record of the batch.
  for (const std::string& body :
       std::vector<std::string>{R"({"batchItemFailures":[{"itemIdentifier":""}]})",
                                R"({"batchItemFailures":[{"itemIdentifier":null}]})",
                                R"({"batchItemFailures":[{"ItemIdentifier":")" + second + "\"}]}",
                                R"({"batchItemFailures":[{"itemIdentifier":"7"}]})",
                                std::string(R"({"batchItemFailures":"x"})")}) {
    INFO(body);
    CHECK(read(200, false, body).result == Result::kFunctionError);
  }
}

TEST_CASE("A batch given up is recorded as Lambda's invocation record") {
  const StreamTriggerBatch batch = Batch();
  StreamTriggerOutcome last;
  last.result = StreamTriggerOutcome::Result::kFunctionError;
  last.status = 200;
  DiscardRecord discard{"316aa6d0-8154-4af7-85d5-f4a6bc81aaaa",
                        "arn:aws:lambda:eu-west-1:000000000000:function:f",
                        StreamTriggerDiscard::kRetryAttemptsExhausted, 3, 1'764'547'261'017};
  CHECK(StreamTriggerDiscardJson(discard, batch, last, R"({"Records":[]})") ==
        R"({"requestContext":{"requestId":"316aa6d0-8154-4af7-85d5-f4a6bc81aaaa",)"
        R"("functionArn":"arn:aws:lambda:eu-west-1:000000000000:function:f",)"
        R"("condition":"RetryAttemptsExhausted","approximateInvokeCount":3},)"
        R"("responseContext":{"statusCode":200,"executedVersion":"$LATEST",)"
        R"("functionError":"Unhandled"},"version":"1.0","timestamp":"2025-12-01T00:01:01.017Z",)"
        R"("DDBStreamBatchInfo":{"shardId":"shardId-00000001764547200000-0a1b2c3d",)"
        R"("startSequenceNumber":")" +
            SequenceNumberText(100) + R"(","endSequenceNumber":")" + SequenceNumberText(102) +
            R"(","approximateArrivalOfFirstRecord":"2025-12-01T00:00:00Z",)"
            R"("approximateArrivalOfLastRecord":"2025-12-01T00:00:00Z","batchSize":3,)"
            R"("streamArn":")" +
            kStream + R"("},"payload":{"Records":[]}})");
  discard.why = StreamTriggerDiscard::kRecordAgeExceeded;
  discard.invocations = 0;
  const std::string aged = StreamTriggerDiscardJson(discard, batch, {}, "{}");
  CHECK(aged.find(R"("condition":"RecordAgeExceeded","approximateInvokeCount":0})") !=
        std::string::npos);
  CHECK(aged.find("responseContext") == std::string::npos);
}

bool Matches(const std::string& pattern, const std::string& record) {
  std::string problem;
  auto filter = EventFilter::Compile(pattern, problem);
  INFO(problem);
  REQUIRE(filter);
  rapidjson::Document document;
  document.Parse(record.c_str());
  REQUIRE_FALSE(document.HasParseError());
  return filter->Matches(document);
}

TEST_CASE("Filter patterns match as Lambda's event filtering does") {
  const std::string insert =
      R"({"eventName":"INSERT","dynamodb":{"Keys":{"pk":{"S":"order#1"}},"NewImage":{)"
      R"("pk":{"S":"order#1"},"status":{"S":"Shipped"},"tags":{"SS":["a","b"]},)"
      R"("empty":{"S":""},"gone":{"NULL":true}},"SizeBytes":42}})";
  CHECK(Matches(R"({"eventName":["INSERT"]})", insert));
  CHECK_FALSE(Matches(R"({"eventName":["MODIFY","REMOVE"]})", insert));
  CHECK(Matches(R"({"eventName":["MODIFY","INSERT"]})", insert));  // Or
  // And: every field.
  CHECK(
      Matches(R"({"eventName":["INSERT"],"dynamodb":{"Keys":{"pk":{"S":["order#1"]}}}})", insert));
  CHECK_FALSE(
      Matches(R"({"eventName":["INSERT"],"dynamodb":{"Keys":{"pk":{"S":["x"]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"order#"}]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"suffix":"ped"}]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"equals-ignore-case":"SHIPPED"}]}}}})",
                insert));
  CHECK_FALSE(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":["SHIPPED"]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":["Pending"]}]}}}})",
                insert));
  CHECK_FALSE(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":"Shipped"}]}}}})",
                      insert));
  CHECK(Matches(R"({"dynamodb":{"SizeBytes":[{"numeric":[">",0,"<=",42]}]}})", insert));
  CHECK_FALSE(Matches(R"({"dynamodb":{"SizeBytes":[{"numeric":["<",42]}]}})", insert));
  CHECK(Matches(R"({"dynamodb":{"SizeBytes":[42]}})", insert));
  // Exists (a value), does not exist, Empty, Null, an array's elements.
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"exists":true}]}}}})", insert));
  CHECK_FALSE(Matches(R"({"dynamodb":{"NewImage":{"status":[{"exists":true}]}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"owner":[{"exists":false}]}}})", insert));
  CHECK_FALSE(Matches(R"({"dynamodb":{"NewImage":{"status":{"S":[{"exists":false}]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"empty":{"S":[""]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"gone":{"NULL":[true]}}}})", insert));
  CHECK(Matches(R"({"dynamodb":{"NewImage":{"tags":{"SS":["b"]}}}})", insert));
  // A missing field matches nothing but exists:false.
  CHECK_FALSE(Matches(R"({"dynamodb":{"OldImage":{"status":{"S":["Shipped"]}}}})", insert));
  CHECK_FALSE(Matches(
      R"({"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":["x"]}]}}}, "userIdentity":["x"]})",
      insert));
}

TEST_CASE("Filter patterns that are refused") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"[1]", "the pattern must be a JSON object naming fields"},
      {"{", "the pattern is not JSON"},
      {"{}", "the pattern must be a JSON object naming fields"},
      {R"({"a":"b"})", "a field's rule must be an array of matchers or an object of fields"},
      {R"({"a":[]})", "a field's array of matchers is empty"},
      {R"({"a":[{"regex":"x"}]})", "unknown operator regex"},
      {R"({"a":[{"prefix":1}]})", "prefix takes a string"},
      {R"({"a":[{"numeric":[">"]}]})",
       "numeric takes one or two comparisons: [\">\", 0, \"<=\", 5]"},
      {R"({"a":[{"numeric":["!=",1]}]})",
       "numeric takes =, <, <=, > or >= each followed by a number"},
      {R"({"a":[{"exists":"yes"}]})", "exists takes true or false"},
      {R"({"a":[{"prefix":"x","suffix":"y"}]})", "a comparison object takes exactly one operator"},
      {R"({"a":[[1]]})", "a rule's array holds an array"},
  };
  for (const auto& [pattern, why] : refused) {
    INFO(pattern);
    std::string problem;
    CHECK_FALSE(EventFilter::Compile(pattern, problem));
    CHECK(problem == why);
  }
  std::string deep = "[1]";
  for (int i = 0; i < EventFilter::kMaxDepth + 1; ++i) deep = "{\"a\":" + deep + "}";
  std::string problem;
  CHECK_FALSE(EventFilter::Compile(deep, problem));
  CHECK(problem == "the pattern nests deeper than 16");
}

}  // namespace
}  // namespace ddbd
