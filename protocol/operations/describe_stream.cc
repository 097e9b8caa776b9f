#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

void EncodeShard(wire::out::StreamsShard& out, const ShardDescription& shard) {
  out.ShardId(shard.shard_id);
  out.SequenceNumberRange([&](wire::out::StreamsSequenceNumberRange& range) {
    range.StartingSequenceNumber(SequenceNumberText(shard.starting_sequence));
    if (shard.ending_sequence)
      range.EndingSequenceNumber(SequenceNumberText(*shard.ending_sequence));
  });
  if (!shard.parent_shard_id.empty()) out.ParentShardId(shard.parent_shard_id);
}

}  // namespace

// DescribeStream: the stream and its shards in ShardId order (opening order), paged, optionally
// only the children of one shard (ShardFilter CHILD_SHARDS).
Status DescribeStream(Engine& engine, const wire::StreamsDescribeStreamInput& in,
                      json::Writer& response) {
  DescribeStreamArgs args;
  args.stream_arn = std::string(in.stream_arn);
  args.limit = static_cast<int>(in.limit.value_or(100));
  if (in.exclusive_start_shard_id) {
    args.exclusive_start_shard_id = std::string(*in.exclusive_start_shard_id);
  }
  if (in.shard_filter != nullptr) {
    wire::StreamsShardFilter filter;
    wire::View(*in.shard_filter, filter);
    // DynamoDB refuses a filter without both (behaviours-to-match F3: the type recorded, the
    // texts inferred from coral's constraint wording).
    if (!filter.type) {
      return Error::Validation(
          "1 validation error detected: Value 'null' at 'shardFilter.type' failed to satisfy "
          "constraint: Member must be CHILD_SHARDS");
    }
    if (!filter.shard_id) {
      return Error::Validation(
          "1 validation error detected: Value 'null' at 'shardFilter.shardId' failed to satisfy "
          "constraint: Member must not be null");
    }
    args.child_shards_of = std::string(*filter.shard_id);
  }
  auto described = engine.DescribeStream(args);
  if (!described.ok()) return described.error();
  const DescribeStreamResult& described_value = described.value();
  const StreamDescription& stream = described_value.description;
  wire::Write<wire::out::StreamsDescribeStreamOutput>(response, [&](auto& out) {
    out.StreamDescription([&](wire::out::StreamsStreamDescription& description) {
      description.StreamArn(stream.summary.stream_arn);
      description.StreamLabel(stream.summary.stream_label);
      description.StreamStatus(stream.enabled ? wire::StreamStatus::kEnabled
                                              : wire::StreamStatus::kDisabled);
      description.StreamViewType(StreamViewTypeOf(stream.view_type));
      description.CreationRequestDateTime(stream.creation_ms);
      description.TableName(stream.summary.table_name);
      description.KeySchema(
          [&](wire::out::StreamsKeySchema& list) { EncodeKeySchema(list, stream.key_schema); });
      description.Shards([&](wire::out::StreamsShardDescriptionList& list) {
        for (const ShardDescription& shard : stream.shards) {
          list.Add([&](wire::out::StreamsShard& one) { EncodeShard(one, shard); });
        }
      });
      if (described_value.last_evaluated_shard_id) {
        description.LastEvaluatedShardId(*described_value.last_evaluated_shard_id);
      }
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
