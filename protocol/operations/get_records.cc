#include "engine/model/attribute_value.h"
#include "engine/model/item_codec.h"
#include "protocol/attribute_value_json.h"
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/stream_record_json.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

wire::OperationType EventName(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kInsert:
      return wire::OperationType::kInsert;
    case ChangeKind::kModify:
      return wire::OperationType::kModify;
    default:
      return wire::OperationType::kRemove;
  }
}

void EncodeRecord(wire::out::StreamsRecord& out, const StreamRecord& record,
                  std::string_view stream_arn, wire::StreamViewType view_type,
                  const std::string& region) {
  out.eventID(EventId(stream_arn, record.sequence));
  out.eventName(EventName(record.kind));
  out.eventVersion("1.1");  // what DynamoDB sends (its API sample shows 1.0)
  out.eventSource("aws:dynamodb");
  out.awsRegion(region);
  out.dynamodb([&](wire::out::StreamsStreamRecord& change) {
    change.ApproximateCreationDateTime(record.created_ms / 1000 * 1000);  // to the second
    change.Keys([&](json::Writer& keys) { EncodeItemBlob(keys, record.keys); });
    if (!record.new_image.empty()) {
      change.NewImage([&](json::Writer& image) { EncodeItemBlob(image, record.new_image); });
    }
    if (!record.old_image.empty()) {
      change.OldImage([&](json::Writer& image) { EncodeItemBlob(image, record.old_image); });
    }
    change.SequenceNumber(SequenceNumberText(record.sequence));
    change.SizeBytes(static_cast<int64_t>(StreamRecordSizeBytes(record)));
    change.StreamViewType(view_type);
  });
  if (record.by_time_to_live) {
    out.userIdentity([&](wire::out::StreamsIdentity& identity) {
      identity.Type("Service");
      identity.PrincipalId("dynamodb.amazonaws.com");
    });
  }
}

}  // namespace

// GetRecords: up to Limit (1000) records or about 1 MB from the iterator's position, and the
// iterator to go on with; none once a closed shard is read to its end.
Status GetRecords(Engine& engine, const wire::StreamsGetRecordsInput& in, json::Writer& response) {
  GetRecordsArgs args;
  args.shard_iterator = std::string(in.shard_iterator);
  args.limit = static_cast<int>(in.limit.value_or(1000));
  auto read = engine.GetRecords(args);
  if (!read.ok()) return read.error();
  const std::string& stream_arn = read.value().stream_arn;
  const wire::StreamViewType view_type = StreamViewTypeOf(read.value().view_type);
  wire::Write<wire::out::StreamsGetRecordsOutput>(response, [&](auto& out) {
    out.Records([&](wire::out::StreamsRecordList& list) {
      for (const StreamRecord& record : read.value().records) {
        list.Add([&](wire::out::StreamsRecord& one) {
          EncodeRecord(one, record, stream_arn, view_type, engine.options().region);
        });
      }
    });
    if (read.value().next_shard_iterator) {
      out.NextShardIterator(*read.value().next_shard_iterator);
    }
  });
  return Ok{};
}

}  // namespace ddbd::operations
