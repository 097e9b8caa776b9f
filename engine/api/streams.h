// The DynamoDB Streams operations' arguments and answers (engine/engine.h): ListStreams,
// DescribeStream, GetShardIterator and GetRecords.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/streams/table_stream.h"

namespace ddbd {

struct ListStreamsArgs {
  std::optional<std::string> table_name;
  int limit = 100;
  std::optional<std::string> exclusive_start_stream_arn;
};

struct ListStreamsResult {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_stream_arn;
};

struct DescribeStreamArgs {
  std::string stream_arn;
  int limit = 100;
  std::optional<std::string> exclusive_start_shard_id;
  std::optional<std::string> child_shards_of;  // ShardFilter CHILD_SHARDS
};

struct DescribeStreamResult {
  StreamDescription description;
  std::optional<std::string> last_evaluated_shard_id;
};

struct GetShardIteratorArgs {
  std::string stream_arn;
  std::string shard_id;
  TableStream::IteratorType type = TableStream::IteratorType::kTrimHorizon;
  std::optional<uint64_t> sequence;  // AT_ / AFTER_SEQUENCE_NUMBER
};

struct GetRecordsArgs {
  std::string shard_iterator;
  int limit = 1000;
};

struct GetRecordsResult {
  std::string stream_arn;  // the iterator's (records' event ids derive from it)
  std::vector<StreamRecord> records;
  std::optional<std::string> next_shard_iterator;
  StreamViewType view_type = StreamViewType::kNewAndOldImages;
};

}  // namespace ddbd
