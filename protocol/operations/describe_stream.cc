#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
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
  wire::StreamsDescribeStreamInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  DescribeStreamArgs args;
  args.stream_arn = std::string(in.stream_arn);
  args.limit = static_cast<int>(in.limit.value_or(100));
  if (in.exclusive_start_shard_id) {
    args.exclusive_start_shard_id = std::string(*in.exclusive_start_shard_id);
  }
  if (in.shard_filter != nullptr) {
    wire::StreamsShardFilter filter;
    wire::View(*in.shard_filter, filter);
    if (filter.type && filter.shard_id) args.child_shards_of = std::string(*filter.shard_id);
  }
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
