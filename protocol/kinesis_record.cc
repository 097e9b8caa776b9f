#include "protocol/kinesis_record.h"

#include <rapidjson/document.h>

#include "protocol/base64.h"
#include "protocol/json_parse.h"
#include "protocol/json_writer.h"
#include "protocol/stream_record_json.h"

namespace ddbd {
namespace {

std::string_view Text(const rapidjson::Value& object, const char* name) {
  auto member = object.FindMember(name);
  if (member == object.MemberEnd() || !member->value.IsString()) return {};
  return {member->value.GetString(), member->value.GetStringLength()};
}

}  // namespace

std::string KinesisEventId(std::string_view feed_arn, uint64_t sequence) {
  const std::string hex = EventId(feed_arn, sequence);  // 32 hex digits
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20, 12);
}

std::string KinesisRecordJson(const StreamRecord& record, const KinesisBatch& batch) {
  json::Buffer buffer;
  json::Writer out(buffer);
  out.StartObject();
  json::Key(out, "\"awsRegion\"");
  json::String(out, batch.region);
  json::Key(out, "\"eventID\"");
  json::String(out, KinesisEventId(batch.feed_arn, record.sequence));
  json::Key(out, "\"eventName\"");
  out.String(EventNameText(record.kind));
  json::Key(out, "\"userIdentity\"");
  if (record.by_time_to_live) {
    WriteServiceIdentity(out);
  } else {
    out.Null();
  }
  json::Key(out, "\"recordFormat\"");
  out.String("application/json");
  json::Key(out, "\"tableName\"");
  json::String(out, batch.table_name);
  json::Key(out, "\"dynamodb\"");
  out.StartObject();
  json::Key(out, "\"ApproximateCreationDateTime\"");
  out.Int64(batch.precision == TimestampPrecision::kMillisecond ? record.created_ms
                                                                : record.created_ms * 1000);
  WriteRecordImages(out, record);
  json::Key(out, "\"SizeBytes\"");
  out.Uint64(StreamRecordSizeBytes(record));
  out.EndObject();
  json::Key(out, "\"eventSource\"");
  out.String("aws:dynamodb");
  out.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

std::string_view KinesisStreamName(std::string_view stream_arn) {
  const size_t slash = stream_arn.find(":stream/");
  if (slash == std::string_view::npos) return {};
  return stream_arn.substr(slash + 8);
}

std::string PutRecordsBody(std::string_view stream_name, const std::vector<KinesisEntry>& entries) {
  json::Buffer buffer;
  json::Writer out(buffer);
  out.StartObject();
  json::Key(out, "\"StreamName\"");
  json::String(out, stream_name);
  json::Key(out, "\"Records\"");
  out.StartArray();
  for (const KinesisEntry& entry : entries) {
    out.StartObject();
    json::Key(out, "\"Data\"");
    json::String(out, Base64Encode(entry.data));
    json::Key(out, "\"PartitionKey\"");
    json::String(out, entry.partition_key);
    out.EndObject();
  }
  out.EndArray();
  out.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

PutRecordsAnswer ReadPutRecordsAnswer(std::string body) {
  PutRecordsAnswer answer;
  rapidjson::Document document;
  if (!json::ParseInPlace(body, document) || !document.IsObject()) return answer;
  auto records = document.FindMember("Records");
  if (records == document.MemberEnd() || !records->value.IsArray()) return answer;
  answer.readable = true;
  for (const rapidjson::Value& record : records->value.GetArray()) {
    if (!record.IsObject()) break;
    if (const std::string_view code = Text(record, "ErrorCode"); !code.empty()) {
      answer.error_code = code;
      answer.error_message = Text(record, "ErrorMessage");
      break;
    }
    ++answer.taken_in_order;
  }
  return answer;
}

std::pair<std::string, std::string> ReadKinesisError(std::string body) {
  rapidjson::Document document;
  if (!json::ParseInPlace(body, document) || !document.IsObject()) return {};
  std::string type(Text(document, "__type"));
  if (const size_t hash = type.rfind('#'); hash != std::string::npos) type.erase(0, hash + 1);
  std::string message(Text(document, "message"));
  if (message.empty()) message = Text(document, "Message");
  return {type, message};
}

}  // namespace ddbd
