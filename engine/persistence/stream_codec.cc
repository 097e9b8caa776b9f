#include "engine/persistence/stream_codec.h"

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum State : uint32_t {
  kArn = 1,
  kTableName,
  kLabel,
  kViewType,
  kKey,
  kOpen,
  kCreated,
  kLastSequence,
  kLastShardMs,
  kShard,
  kDelivered,
};
enum Key : uint32_t { kKeyName = 1, kKeyType };
enum Shard : uint32_t {
  kShardId = 1,
  kParent,
  kStarting,
  kEnding,
  kOpened,
  kClosed,
  kFirstRetained,
};
enum Record : uint32_t {
  kStreamArn = 1,
  kSequence,
  kRecordCreated,
  kKind,
  kByTimeToLive,
  kOldSize,
  kNewSize,
  kKeys,
  kOldImage,
  kNewImage,
};
enum Closed : uint32_t { kClosedArn = 1, kClosedMs };
enum Delivered : uint32_t { kDeliveredArn = 1, kDeliveredSequence };

Error Malformed(const char* what) { return Error::Internal(std::string("malformed ") + what); }

}  // namespace

std::string EncodeStreamState(const StreamState& state) {
  FieldWriter fields;
  fields.Bytes(kArn, state.summary.stream_arn);
  fields.Bytes(kTableName, state.summary.table_name);
  fields.Bytes(kLabel, state.summary.stream_label);
  fields.Int(kViewType, static_cast<int64_t>(state.view_type));
  for (const KeySchemaElement& key : state.key_schema) {
    FieldWriter element;
    element.Bytes(kKeyName, key.attribute_name);
    element.Int(kKeyType, static_cast<int64_t>(key.key_type));
    fields.Bytes(kKey, element.bytes());
  }
  fields.Int(kOpen, state.open ? 1 : 0);
  fields.Int(kCreated, state.creation_ms);
  fields.Int(kLastSequence, static_cast<int64_t>(state.last_sequence));
  fields.Int(kLastShardMs, state.last_shard_ms);
  for (const StreamShardState& shard : state.shards) {
    FieldWriter nested;
    nested.Bytes(kShardId, shard.description.shard_id);
    if (!shard.description.parent_shard_id.empty()) {
      nested.Bytes(kParent, shard.description.parent_shard_id);
    }
    nested.Int(kStarting, static_cast<int64_t>(shard.description.starting_sequence));
    if (shard.description.ending_sequence) {
      nested.Int(kEnding, static_cast<int64_t>(*shard.description.ending_sequence));
    }
    nested.Int(kOpened, shard.opened_ms);
    nested.Int(kClosed, shard.closed_ms);
    nested.Int(kFirstRetained, static_cast<int64_t>(shard.first_retained));
    fields.Bytes(kShard, nested.bytes());
  }
  if (state.delivered != 0) fields.Int(kDelivered, static_cast<int64_t>(state.delivered));
  return fields.Take();
}

Result<StreamState> DecodeStreamState(std::string_view bytes) {
  StreamState state;
  FieldReader fields(bytes);
  bool nested_ok = true;
  while (fields.Next()) {
    switch (fields.number()) {
      case kArn:
        state.summary.stream_arn = std::string(fields.text());
        break;
      case kTableName:
        state.summary.table_name = std::string(fields.text());
        break;
      case kLabel:
        state.summary.stream_label = std::string(fields.text());
        break;
      case kViewType:
        state.view_type = static_cast<StreamViewType>(fields.integer());
        break;
      case kKey: {
        KeySchemaElement& key = state.key_schema.emplace_back();
        key.key_type = KeyType::kHash;
        FieldReader element(fields.text());
        while (element.Next()) {
          if (element.number() == kKeyName) key.attribute_name = std::string(element.text());
          if (element.number() == kKeyType) key.key_type = static_cast<KeyType>(element.integer());
        }
        nested_ok = nested_ok && element.ok();
        break;
      }
      case kOpen:
        state.open = fields.integer() != 0;
        break;
      case kCreated:
        state.creation_ms = fields.integer();
        break;
      case kLastSequence:
        state.last_sequence = static_cast<uint64_t>(fields.integer());
        break;
      case kLastShardMs:
        state.last_shard_ms = fields.integer();
        break;
      case kDelivered:
        state.delivered = static_cast<uint64_t>(fields.integer());
        break;
      case kShard: {
        StreamShardState& shard = state.shards.emplace_back();
        FieldReader nested(fields.text());
        while (nested.Next()) {
          const auto number = static_cast<uint64_t>(nested.integer());
          switch (nested.number()) {
            case kShardId:
              shard.description.shard_id = std::string(nested.text());
              break;
            case kParent:
              shard.description.parent_shard_id = std::string(nested.text());
              break;
            case kStarting:
              shard.description.starting_sequence = number;
              break;
            case kEnding:
              shard.description.ending_sequence = number;
              break;
            case kOpened:
              shard.opened_ms = nested.integer();
              break;
            case kClosed:
              shard.closed_ms = nested.integer();
              break;
            case kFirstRetained:
              shard.first_retained = number;
              break;
            default:
              break;
          }
        }
        nested_ok = nested_ok && nested.ok() && !shard.description.shard_id.empty();
        break;
      }
      default:
        break;
    }
  }
  if (!fields.ok() || !nested_ok || state.summary.stream_arn.empty() ||
      static_cast<int64_t>(state.view_type) > static_cast<int64_t>(StreamViewType::kKeysOnly)) {
    return Malformed("stream");
  }
  return state;
}

std::string EncodeStreamRecord(std::string_view stream_arn, const StreamRecord& record) {
  FieldWriter fields;
  fields.Bytes(kStreamArn, stream_arn);
  fields.Int(kSequence, static_cast<int64_t>(record.sequence));
  fields.Int(kRecordCreated, record.created_ms);
  fields.Int(kKind, static_cast<int64_t>(record.kind));
  if (record.by_time_to_live) fields.Int(kByTimeToLive, 1);
  fields.Int(kOldSize, record.old_size);
  fields.Int(kNewSize, record.new_size);
  fields.Bytes(kKeys, record.keys);
  if (!record.old_image.empty()) fields.Bytes(kOldImage, record.old_image);
  if (!record.new_image.empty()) fields.Bytes(kNewImage, record.new_image);
  return fields.Take();
}

Result<StreamRecordFields> DecodeStreamRecord(std::string_view bytes) {
  StreamRecordFields decoded;
  StreamRecord& record = decoded.record;
  record.kind = ChangeKind::kNone;  // required
  FieldReader fields(bytes);
  while (fields.Next()) {
    switch (fields.number()) {
      case kStreamArn:
        decoded.stream_arn = fields.text();
        break;
      case kSequence:
        record.sequence = static_cast<uint64_t>(fields.integer());
        break;
      case kRecordCreated:
        record.created_ms = fields.integer();
        break;
      case kKind:
        record.kind = static_cast<ChangeKind>(fields.integer());
        break;
      case kByTimeToLive:
        record.by_time_to_live = fields.integer() != 0;
        break;
      case kOldSize:
        record.old_size = static_cast<uint32_t>(fields.integer());
        break;
      case kNewSize:
        record.new_size = static_cast<uint32_t>(fields.integer());
        break;
      case kKeys:
        record.keys = std::string(fields.text());
        break;
      case kOldImage:
        record.old_image = std::string(fields.text());
        break;
      case kNewImage:
        record.new_image = std::string(fields.text());
        break;
      default:
        break;
    }
  }
  const bool kind_ok = record.kind == ChangeKind::kInsert || record.kind == ChangeKind::kModify ||
                       record.kind == ChangeKind::kRemove;
  if (!fields.ok() || decoded.stream_arn.empty() || !kind_ok || record.sequence == 0) {
    return Malformed("stream record");
  }
  return decoded;
}

std::string EncodeStreamClosed(std::string_view stream_arn, int64_t closed_ms) {
  FieldWriter fields;
  fields.Bytes(kClosedArn, stream_arn);
  fields.Int(kClosedMs, closed_ms);
  return fields.Take();
}

Result<StreamClosedFields> DecodeStreamClosed(std::string_view bytes) {
  StreamClosedFields decoded;
  FieldReader fields(bytes);
  while (fields.Next()) {
    if (fields.number() == kClosedArn) decoded.stream_arn = fields.text();
    if (fields.number() == kClosedMs) decoded.closed_ms = fields.integer();
  }
  if (!fields.ok() || decoded.stream_arn.empty()) return Malformed("stream closing");
  return decoded;
}

std::string EncodeStreamDelivered(std::string_view stream_arn, uint64_t sequence) {
  FieldWriter fields;
  fields.Bytes(kDeliveredArn, stream_arn);
  fields.Int(kDeliveredSequence, static_cast<int64_t>(sequence));
  return fields.Take();
}

Result<StreamDeliveredFields> DecodeStreamDelivered(std::string_view bytes) {
  StreamDeliveredFields decoded;
  FieldReader fields(bytes);
  while (fields.Next()) {
    if (fields.number() == kDeliveredArn) decoded.stream_arn = fields.text();
    if (fields.number() == kDeliveredSequence) {
      decoded.sequence = static_cast<uint64_t>(fields.integer());
    }
  }
  if (!fields.ok() || decoded.stream_arn.empty()) return Malformed("stream delivery");
  return decoded;
}

}  // namespace ddbd
