#include "engine/model/attribute_value.h"
#include "engine/model/item_codec.h"
#include "protocol/attribute_value_json.h"
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

const char* EventName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kInsert:
      return "INSERT";
    case ChangeKind::kModify:
      return "MODIFY";
    default:
      return "REMOVE";
  }
}

void EncodeRecord(json::Writer& response, const StreamRecord& record, std::string_view stream_arn,
                  const char* view_type, const std::string& region) {
  response.StartObject();
  response.Key("eventID");
  json::String(response, EventId(stream_arn, record.sequence));
  response.Key("eventName");
  response.String(EventName(record.kind));
  response.Key("eventVersion");
  response.String("1.1");  // what DynamoDB sends (its API sample shows 1.0)
  response.Key("eventSource");
  response.String("aws:dynamodb");
  response.Key("awsRegion");
  json::String(response, region);
  response.Key("dynamodb");
  response.StartObject();
  response.Key("ApproximateCreationDateTime");
  response.Int64(record.created_ms / 1000);  // rounded down to the second
  response.Key("Keys");
  EncodeItemBlob(response, record.keys);
  if (!record.new_image.empty()) {
    response.Key("NewImage");
    EncodeItemBlob(response, record.new_image);
  }
  if (!record.old_image.empty()) {
    response.Key("OldImage");
    EncodeItemBlob(response, record.old_image);
  }
  response.Key("SequenceNumber");
  json::String(response, SequenceNumberText(record.sequence));
  // The record's size: its keys and the images it carries.
  size_t size = ItemSize(DecodeItem(record.keys));
  if (!record.new_image.empty()) size += record.new_size;
  if (!record.old_image.empty()) size += record.old_size;
  response.Key("SizeBytes");
  response.Uint64(size);
  response.Key("StreamViewType");
  response.String(view_type);
  response.EndObject();
  if (record.by_time_to_live) {
    response.Key("userIdentity");
    response.StartObject();
    response.Key("Type");
    response.String("Service");
    response.Key("PrincipalId");
    response.String("dynamodb.amazonaws.com");
    response.EndObject();
  }
  response.EndObject();
}

}  // namespace

// GetRecords: up to Limit (1000) records or about 1 MB from the iterator's position, and the
// iterator to go on with; none once a closed shard is read to its end.
Status GetRecords(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::StreamsGetRecordsInput in;
  if (Status decoded = wire::Decode(request, in); !decoded.ok()) return decoded;
  GetRecordsArgs args;
  args.shard_iterator = std::string(in.shard_iterator);
  args.limit = static_cast<int>(in.limit.value_or(1000));
  auto read = engine.GetRecords(args);
  if (!read.ok()) return read.error();
  const std::string& stream_arn = read.value().stream_arn;
  const char* view_type = StreamViewTypeName(read.value().view_type);
  response.StartObject();
  response.Key("Records");
  response.StartArray();
  for (const StreamRecord& record : read.value().records) {
    EncodeRecord(response, record, stream_arn, view_type, engine.options().region);
  }
  response.EndArray();
  if (read.value().next_shard_iterator) {
    response.Key("NextShardIterator");
    json::String(response, *read.value().next_shard_iterator);
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
