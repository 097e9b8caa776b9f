#include "protocol/lambda_event.h"

#include <rapidjson/document.h>

#include <cstdio>
#include <optional>

#include "engine/clock.h"
#include "protocol/json_parse.h"
#include "protocol/json_writer.h"
#include "protocol/stream_record_json.h"

namespace ddbd {
namespace {

const char* ViewTypeName(StreamViewType type) {
  switch (type) {
    case StreamViewType::kKeysOnly:
      return "KEYS_ONLY";
    case StreamViewType::kNewImage:
      return "NEW_IMAGE";
    case StreamViewType::kOldImage:
      return "OLD_IMAGE";
    default:
      return "NEW_AND_OLD_IMAGES";
  }
}

StreamTriggerOutcome Failed(int status, std::string message) {
  StreamTriggerOutcome outcome;
  outcome.result = StreamTriggerOutcome::Result::kFunctionError;
  outcome.status = status;
  outcome.message = std::move(message);
  return outcome;
}

// "2019-11-14T00:13:49.717Z": engine/clock.h's IsoSeconds with the milliseconds.
std::string IsoMillis(int64_t epoch_ms) {
  std::string text = IsoSeconds(epoch_ms);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03d", static_cast<int>(epoch_ms % 1000));
  text.insert(text.size() - 1, millis);
  return text;
}

}  // namespace

std::string StreamTriggerRecordJson(const StreamRecord& record, const StreamTriggerBatch& batch) {
  json::Buffer buffer;
  json::Writer out(buffer);
  out.StartObject();
  json::Key(out, "\"eventID\"");
  json::String(out, EventId(batch.stream_arn, record.sequence));
  json::Key(out, "\"eventName\"");
  out.String(EventNameText(record.kind));
  json::Key(out, "\"eventVersion\"");
  out.String("1.1");
  json::Key(out, "\"eventSource\"");
  out.String("aws:dynamodb");
  json::Key(out, "\"awsRegion\"");
  json::String(out, batch.region);
  json::Key(out, "\"dynamodb\"");
  out.StartObject();
  json::Key(out, "\"ApproximateCreationDateTime\"");
  out.Int64(record.created_ms / 1000);  // to the second, as GetRecords
  WriteRecordImages(out, record);
  json::Key(out, "\"SequenceNumber\"");
  json::String(out, SequenceNumberText(record.sequence));
  json::Key(out, "\"SizeBytes\"");
  out.Uint64(StreamRecordSizeBytes(record));
  json::Key(out, "\"StreamViewType\"");
  out.String(ViewTypeName(batch.view_type));
  out.EndObject();
  json::Key(out, "\"eventSourceARN\"");
  json::String(out, batch.stream_arn);
  if (record.by_time_to_live) {
    json::Key(out, "\"userIdentity\"");
    WriteServiceIdentity(out);
  }
  out.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string StreamTriggerEvent(const std::vector<std::string>& records) {
  size_t size = 16;
  for (const std::string& record : records) size += record.size() + 1;
  std::string event;
  event.reserve(size);
  event += "{\"Records\":[";
  for (size_t i = 0; i < records.size(); ++i) {
    if (i > 0) event += ',';
    event += records[i];
  }
  event += "]}";
  return event;
}

StreamTriggerOutcome ReadFunctionAnswer(int status, bool function_error, std::string body,
                                        bool report_batch_item_failures,
                                        const StreamTriggerBatch& batch) {
  if (function_error) return Failed(status, "the function failed: " + body.substr(0, 512));
  if (status == 500)
    return Failed(status, "the function failed (HTTP 500): " + body.substr(0, 512));
  if (status < 200 || status > 299) {
    StreamTriggerOutcome outcome;
    outcome.result = StreamTriggerOutcome::Result::kUnreachable;
    outcome.status = status;
    outcome.message = "the function was not invoked (HTTP " + std::to_string(status) +
                      "): " + body.substr(0, 512);
    return outcome;
  }
  StreamTriggerOutcome success;
  success.status = status;
  const std::string excerpt = body.substr(0, 512);
  rapidjson::Document document;
  if (!json::ParseInPlace(body, document) || !document.IsObject()) return success;
  const rapidjson::Value& result = document;
  // A runtime's answer for a handler that threw.
  if (result.HasMember("errorMessage") && result.HasMember("errorType")) {
    return Failed(status, "the function failed: " + excerpt);
  }
  if (!report_batch_item_failures) return success;
  auto failures = result.FindMember("batchItemFailures");
  if (failures == result.MemberEnd() || failures->value.IsNull()) return success;
  if (!failures->value.IsArray()) return Failed(status, "batchItemFailures is not a list");
  std::optional<uint64_t> lowest;
  for (const rapidjson::Value& failure : failures->value.GetArray()) {
    const rapidjson::Value* identifier = nullptr;
    if (failure.IsObject()) {
      auto found = failure.FindMember("itemIdentifier");
      if (found != failure.MemberEnd()) identifier = &found->value;
    }
    if (identifier == nullptr || !identifier->IsString() || identifier->GetStringLength() == 0) {
      return Failed(status, "a batchItemFailures entry has no itemIdentifier");
    }
    const std::string_view named(identifier->GetString(), identifier->GetStringLength());
    std::optional<uint64_t> sequence;
    for (const StreamRecord& record : batch.records) {
      if (SequenceNumberText(record.sequence) == named) sequence = record.sequence;
    }
    if (!sequence) {
      return Failed(status,
                    "itemIdentifier " + std::string(named) + " names no record of the batch");
    }
    if (!lowest || *sequence < *lowest) lowest = sequence;
  }
  if (lowest) {
    success.first_failure = lowest;
    success.message = "the function reported failed records: " + excerpt;
  }
  return success;
}

std::string StreamTriggerDiscardJson(const DiscardRecord& discard, const StreamTriggerBatch& batch,
                                     const StreamTriggerOutcome& last, std::string_view event) {
  json::Buffer buffer;
  json::Writer out(buffer);
  out.StartObject();
  json::Key(out, "\"requestContext\"");
  out.StartObject();
  json::Key(out, "\"requestId\"");
  json::String(out, discard.request_id);
  json::Key(out, "\"functionArn\"");
  json::String(out, discard.function_arn);
  json::Key(out, "\"condition\"");
  out.String(discard.why == StreamTriggerDiscard::kRetryAttemptsExhausted ? "RetryAttemptsExhausted"
                                                                          : "RecordAgeExceeded");
  json::Key(out, "\"approximateInvokeCount\"");
  out.Int(discard.invocations);
  out.EndObject();
  if (discard.invocations > 0 && last.status != 0) {
    json::Key(out, "\"responseContext\"");
    out.StartObject();
    json::Key(out, "\"statusCode\"");
    out.Int(last.status);
    json::Key(out, "\"executedVersion\"");
    out.String("$LATEST");
    if (last.result == StreamTriggerOutcome::Result::kFunctionError) {
      json::Key(out, "\"functionError\"");
      out.String("Unhandled");
    }
    out.EndObject();
  }
  json::Key(out, "\"version\"");
  out.String("1.0");
  json::Key(out, "\"timestamp\"");
  json::String(out, IsoMillis(discard.now_ms));
  json::Key(out, "\"DDBStreamBatchInfo\"");
  out.StartObject();
  json::Key(out, "\"shardId\"");
  json::String(out, batch.shard_id);
  json::Key(out, "\"startSequenceNumber\"");
  json::String(out, SequenceNumberText(batch.records.front().sequence));
  json::Key(out, "\"endSequenceNumber\"");
  json::String(out, SequenceNumberText(batch.records.back().sequence));
  json::Key(out, "\"approximateArrivalOfFirstRecord\"");
  json::String(out, IsoSeconds(batch.records.front().created_ms));
  json::Key(out, "\"approximateArrivalOfLastRecord\"");
  json::String(out, IsoSeconds(batch.records.back().created_ms));
  json::Key(out, "\"batchSize\"");
  out.Int64(static_cast<int64_t>(batch.records.size()));
  json::Key(out, "\"streamArn\"");
  json::String(out, batch.stream_arn);
  out.EndObject();
  json::Key(out, "\"payload\"");
  out.RawValue(event.data(), event.size(), rapidjson::kObjectType);
  out.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddbd
