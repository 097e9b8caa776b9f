// The DynamoDB Streams operations' arguments and answers (engine/engine.h): ListStreams,
// DescribeStream, GetShardIterator and GetRecords.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/tables.h"

namespace ddbd {

// What a change did to an item (a stream record's eventName). kNone: nothing changed (a delete
// of a missing item, a put of an identical item, an update that only removes from a missing
// item, a backfill's index entries); no record is made of it.
enum class ChangeKind : uint8_t { kNone, kInsert, kModify, kRemove };

enum class ShardIteratorType { kTrimHorizon, kLatest, kAtSequenceNumber, kAfterSequenceNumber };

inline constexpr int64_t kStreamRetentionMs = int64_t{24} * 3600 * 1000;
inline constexpr int64_t kShardIteratorLifetimeMs = int64_t{15} * 60 * 1000;

// One record as GetRecords returns it; blobs are engine/model/item_codec.h items.
struct StreamRecord {
  uint64_t sequence = 0;
  int64_t created_ms = 0;
  ChangeKind kind = ChangeKind::kInsert;  // kInsert, kModify or kRemove
  bool by_time_to_live = false;           // a TTL delete: userIdentity is DynamoDB's service
  uint32_t old_size = 0;                  // the DynamoDB sizes of the item before and after
  uint32_t new_size = 0;
  std::string keys;       // the item's key attributes
  std::string old_image;  // when the view type has it and there was an item
  std::string new_image;  // when the view type has it and there is an item
  size_t Footprint() const { return keys.size() + old_image.size() + new_image.size() + 64; }
};

struct ShardDescription {
  std::string shard_id;
  std::string parent_shard_id;  // empty: none
  uint64_t starting_sequence = 0;
  std::optional<uint64_t> ending_sequence;  // once closed
};

struct StreamSummary {
  std::string stream_arn;
  std::string table_name;
  std::string stream_label;
};

struct StreamDescription {
  StreamSummary summary;
  bool enabled = false;
  StreamViewType view_type = StreamViewType::kNewAndOldImages;
  int64_t creation_ms = 0;
  std::vector<KeySchemaElement> key_schema;
  std::vector<ShardDescription> shards;  // in ShardId order
};

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
  ShardIteratorType type = ShardIteratorType::kTrimHorizon;
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

// DynamoDB's formats: sequence numbers are 21 decimal digits here; shard ids are
// "shardId-" + 20 digits of opening time + "-" + 8 hex digits.
std::string SequenceNumberText(uint64_t sequence);
std::optional<uint64_t> ParseSequenceNumber(std::string_view text);
// 32 hex digits, unique per record of a stream.
std::string EventId(std::string_view stream_arn, uint64_t sequence);

}  // namespace ddbd
