#include "protocol/generated/enums.h"
#include "protocol/operations/operations.h"
#include "protocol/operations/streams.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

void EncodeShard(json::Writer& response, const ShardDescription& shard) {
  response.StartObject();
  response.Key("ShardId");
  json::String(response, shard.shard_id);
  response.Key("SequenceNumberRange");
  response.StartObject();
  response.Key("StartingSequenceNumber");
  json::String(response, SequenceNumberText(shard.starting_sequence));
  if (shard.ending_sequence) {
    response.Key("EndingSequenceNumber");
    json::String(response, SequenceNumberText(*shard.ending_sequence));
  }
  response.EndObject();
  if (!shard.parent_shard_id.empty()) {
    response.Key("ParentShardId");
    json::String(response, shard.parent_shard_id);
  }
  response.EndObject();
}

}  // namespace

// DescribeStream: the stream and its shards in ShardId order (opening order), paged, optionally
// only the children of one shard (ShardFilter CHILD_SHARDS).
Status DescribeStream(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  DescribeStreamArgs args;
  auto arn = DecodeStreamArn(request, "StreamArn", "streamArn", true, errors);
  if (!arn.ok()) return arn.error();
  args.stream_arn = arn.value().value_or("");
  auto limit = DecodeStreamLimit(request, 100, errors);
  if (!limit.ok()) return limit.error();
  args.limit = limit.value();
  auto start =
      DecodeShardId(request, "ExclusiveStartShardId", "exclusiveStartShardId", false, errors);
  if (!start.ok()) return start.error();
  args.exclusive_start_shard_id = start.value();
  auto filter = json::AsStructure(json::Member(request, "ShardFilter"), "ShardFilter");
  if (!filter.ok()) return filter.error();
  if (filter.value() != nullptr) {
    auto type = json::AsString(json::Member(*filter.value(), "Type"));
    if (!type.ok()) return type.error();
    if (type.value() && *type.value() != "CHILD_SHARDS") {
      errors.Enum(*type.value(), "shardFilter.type", wire::kShardFilterType);
    }
    auto parent = DecodeShardId(*filter.value(), "ShardId", "shardFilter.shardId", false, errors);
    if (!parent.ok()) return parent.error();
    if (type.value() && parent.value()) args.child_shards_of = parent.value();
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto described = engine.DescribeStream(args);
  if (!described.ok()) return described.error();
  const StreamDescription& stream = described.value().description;
  response.StartObject();
  response.Key("StreamDescription");
  response.StartObject();
  response.Key("StreamArn");
  json::String(response, stream.summary.stream_arn);
  response.Key("StreamLabel");
  json::String(response, stream.summary.stream_label);
  response.Key("StreamStatus");
  response.String(stream.enabled ? "ENABLED" : "DISABLED");
  response.Key("StreamViewType");
  response.String(StreamViewTypeName(stream.view_type));
  response.Key("CreationRequestDateTime");
  json::EpochSeconds(response, stream.creation_ms);
  response.Key("TableName");
  json::String(response, stream.summary.table_name);
  EncodeKeySchemaMember(response, stream.key_schema);
  response.Key("Shards");
  response.StartArray();
  for (const ShardDescription& shard : stream.shards) EncodeShard(response, shard);
  response.EndArray();
  if (described.value().last_evaluated_shard_id) {
    response.Key("LastEvaluatedShardId");
    json::String(response, *described.value().last_evaluated_shard_id);
  }
  response.EndObject();
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
