// Kinesis streaming destinations on the wire: a change as DynamoDB writes it into a Kinesis
// record's data, the PutRecords request that carries a batch of them, and what its answer says
// (server/kinesis_streams.h sends them; engine/kinesis/kinesis_delivery.h decides what to send).
//
// The record's JSON, members in the order DynamoDB writes them (a real record: awsRegion,
// eventID, eventName, userIdentity, recordFormat, tableName, dynamodb, eventSource):
//   {"awsRegion":"us-east-1","eventID":"<uuid>","eventName":"INSERT","userIdentity":null,
//    "recordFormat":"application/json","tableName":"T","dynamodb":{
//    "ApproximateCreationDateTime":<ms, or µs per the destination's precision>,"Keys":{...},
//    "NewImage":{...},"OldImage":{...},"SizeBytes":N},"eventSource":"aws:dynamodb"}
// A Time to Live deletion's userIdentity is
// {"type":"Service","principalId":"dynamodb.amazonaws.com"}.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/kinesis_delivery.h"

namespace ddbd {

// The record's data for `record` of `batch`.
std::string KinesisRecordJson(const StreamRecord& record, const KinesisBatch& batch);

// The eventID of the record numbered `sequence` in the feed `feed_arn`: a UUID's form, the same
// each time the record is sent (a consumer may drop repeats by it).
std::string KinesisEventId(std::string_view feed_arn, uint64_t sequence);

// The stream's name in a Kinesis stream ARN (arn:aws:kinesis:<region>:<account>:stream/<name>);
// empty when it has none.
std::string_view KinesisStreamName(std::string_view stream_arn);

// PutRecords' body: the stream by name (what every Kinesis-compatible server takes; AWS also takes
// its ARN) and each record's data, base64 encoded, with its partition key.
struct KinesisEntry {
  std::string data;
  std::string partition_key;
};
std::string PutRecordsBody(std::string_view stream_name, const std::vector<KinesisEntry>& entries);

// What a PutRecords answer (HTTP 200) says: how many of the first records were taken before the
// first that failed (all of them when none did), and that one's error.
struct PutRecordsAnswer {
  bool readable = false;
  size_t taken_in_order = 0;
  std::string error_code;
  std::string error_message;
};
PutRecordsAnswer ReadPutRecordsAnswer(std::string body);

// An error answer's type (without any "namespace#" prefix) and message.
std::pair<std::string, std::string> ReadKinesisError(std::string body);

}  // namespace ddbd
