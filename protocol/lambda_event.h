// Stream triggers on the wire (--stream-trigger): the event Lambda's event source mapping invokes
// a function with for a DynamoDB stream, how a function's answer is read, and the record of a
// batch given up (the failure destination). server/stream_trigger_function.h sends them.
//
// The event, members in the order Lambda writes them:
//   {"Records":[{"eventID":"<32 hex>","eventName":"INSERT","eventVersion":"1.1",
//    "eventSource":"aws:dynamodb","awsRegion":"us-east-1","dynamodb":{
//    "ApproximateCreationDateTime":<epoch seconds>,"Keys":{...},"NewImage":{...},"OldImage":{...},
//    "SequenceNumber":"<digits>","SizeBytes":N,"StreamViewType":"NEW_AND_OLD_IMAGES"},
//    "eventSourceARN":"<stream ARN>"}]}
// a Time to Live deletion adding "userIdentity":{"type":"Service",
// "principalId":"dynamodb.amazonaws.com"}. eventID and SequenceNumber are those GetRecords gives.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/stream_triggers.h"

namespace ddbd {

// One record's JSON, as the event holds it (what filter criteria are matched against).
std::string StreamTriggerRecordJson(const StreamRecord& record, const StreamTriggerBatch& batch);
// The event: {"Records":[...]} of the records' JSON, in order.
std::string StreamTriggerEvent(const std::vector<std::string>& records);

// What a function's answer says. `function_error`: the answer carried X-Amz-Function-Error (the
// Lambda Invoke API's mark of a function that failed: sam local start-lambda, LocalStack). Without
// it a 2xx is the function's result and a 500 its failure; a result shaped as a runtime's error
// ({"errorMessage":..., "errorType":...}, as the Runtime Interface Emulator answers with 200) is a
// failure too; any other status (a 404, a 429, a 502) did not reach the function. With
// `report_batch_item_failures`, the result's {"batchItemFailures":[{"itemIdentifier":"<sequence
// number>"}]} names failed records: empty or null is a success; an entry without an
// itemIdentifier naming a record of the batch fails the whole batch, as Lambda's rules say.
StreamTriggerOutcome ReadFunctionAnswer(int status, bool function_error, std::string body,
                                        bool report_batch_item_failures,
                                        const StreamTriggerBatch& batch);

// The record of a batch given up, as Lambda sends to a failure destination (one JSON object):
//   {"requestContext":{"requestId","functionArn","condition","approximateInvokeCount"},
//    "responseContext":{"statusCode","executedVersion":"$LATEST","functionError":"Unhandled"},
//    "version":"1.0","timestamp":"<ISO 8601, ms>","DDBStreamBatchInfo":{"shardId",
//    "startSequenceNumber","endSequenceNumber","approximateArrivalOfFirstRecord",
//    "approximateArrivalOfLastRecord","batchSize","streamArn"},"payload":<the event>}
// responseContext only when the batch was invoked (functionError only for a function error);
// `payload`, the batch's event, as an S3 destination's record carries it.
struct DiscardRecord {
  std::string request_id;  // a UUID
  std::string function_arn;
  StreamTriggerDiscard why = StreamTriggerDiscard::kRetryAttemptsExhausted;
  int invocations = 0;
  int64_t now_ms = 0;
};
std::string StreamTriggerDiscardJson(const DiscardRecord& discard, const StreamTriggerBatch& batch,
                                     const StreamTriggerOutcome& last, std::string_view event);

}  // namespace ddbd
