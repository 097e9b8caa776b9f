// Kinesis delivery on the wire (protocol/kinesis_record.h): a record's JSON exactly as DynamoDB
// writes it (a Time to Live removal's service identity, both precisions), the eventID's form,
// PutRecords' body, and what its answers say.
#include "protocol/kinesis_record.h"

#include <catch2/catch.hpp>

#include "engine/model/item_codec.h"
#include "tests/values.h"

namespace ddbd {
namespace {

TEST_CASE("A Time to Live removal's record is DynamoDB's JSON, in its members' order") {
  StreamRecord record;
  record.sequence = 9;
  record.created_ms = 1'700'000'000'123;
  record.kind = ChangeKind::kRemove;
  record.by_time_to_live = true;
  record.keys = EncodeItem({{"pk", S("a")}});
  record.old_image = EncodeItem({{"pk", S("a")}, {"ttl", N("1")}});
  record.old_size = static_cast<uint32_t>(ItemSize(DecodeItem(record.old_image)));
  KinesisBatch batch{"arn:aws:kinesis:eu-west-1:000000000000:stream/s",
                     "T",
                     "eu-west-1",
                     TimestampPrecision::kMillisecond,
                     "feed",
                     {}};
  const std::string id = KinesisEventId("feed", 9);
  CHECK(KinesisRecordJson(record, batch) ==
        R"({"awsRegion":"eu-west-1","eventID":")" + id +
            R"(","eventName":"REMOVE","userIdentity":{"type":"Service","principalId":)"
            R"("dynamodb.amazonaws.com"},"recordFormat":"application/json","tableName":"T",)"
            R"("dynamodb":{"ApproximateCreationDateTime":1700000000123,"Keys":{"pk":{"S":"a"}},)"
            R"("OldImage":{"pk":{"S":"a"},"ttl":{"N":"1"}},"SizeBytes":11},)"
            R"("eventSource":"aws:dynamodb"})");
  batch.precision = TimestampPrecision::kMicrosecond;
  CHECK(
      KinesisRecordJson(record, batch).find("\"ApproximateCreationDateTime\":1700000000123000,") !=
      std::string::npos);
  // A UUID's form, the same for the same record, another for the next.
  REQUIRE(id.size() == 36);
  CHECK((id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-'));
  CHECK(KinesisEventId("feed", 9) == id);
  CHECK(KinesisEventId("feed", 10) != id);
}

TEST_CASE("PutRecords' body names the stream, its answers tell what was taken in order") {
  CHECK(KinesisStreamName("arn:aws:kinesis:us-east-1:000000000000:stream/orders") == "orders");
  CHECK(KinesisStreamName("arn:aws:sqs:us-east-1:000000000000:orders").empty());
  CHECK(PutRecordsBody("orders", {{"{}", "ABC"}, {"x", "DEF"}}) ==
        R"({"StreamName":"orders","Records":[{"Data":"e30=","PartitionKey":"ABC"},)"
        R"({"Data":"eA==","PartitionKey":"DEF"}]})");
  const PutRecordsAnswer partial = ReadPutRecordsAnswer(
      R"({"FailedRecordCount":1,"Records":[{"SequenceNumber":"1","ShardId":"s"},)"
      R"({"ErrorCode":"ProvisionedThroughputExceededException","ErrorMessage":"Rate exceeded"},)"
      R"({"SequenceNumber":"3","ShardId":"s"}]})");
  CHECK(partial.readable);
  CHECK(partial.taken_in_order == 1);
  CHECK(partial.error_code == "ProvisionedThroughputExceededException");
  CHECK(partial.error_message == "Rate exceeded");
  CHECK_FALSE(ReadPutRecordsAnswer("not json").readable);
  CHECK(ReadKinesisError(
            R"({"__type":"ResourceNotFoundException","message":"Stream s not found"})") ==
        std::pair<std::string, std::string>{"ResourceNotFoundException", "Stream s not found"});
  CHECK(ReadKinesisError(
            R"({"__type":"com.amazonaws.kinesis#LimitExceededException","Message":"m"})") ==
        std::pair<std::string, std::string>{"LimitExceededException", "m"});
}

}  // namespace
}  // namespace ddbd
