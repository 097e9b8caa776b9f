// What a stream keeps that outlives the process: its whole state, as checkpoints write it, and
// the sink each new record goes to with the change that made it (the write-ahead log). Beside the
// commit path rather than in streams/, so that persistence stands on the values and the commit
// path alone (engine/streams/table_stream.h keeps the stream itself).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/api/streams.h"
#include "engine/api/tables.h"
#include "engine/storage/change.h"

namespace ddbd {

// A stream's whole state, as checkpoints keep it (records separately, one log record each).
struct StreamShardState {
  ShardDescription description;
  int64_t opened_ms = 0;
  int64_t closed_ms = 0;
  uint64_t first_retained = 0;
};
struct StreamState {
  StreamSummary summary;
  StreamViewType view_type = StreamViewType::kNewAndOldImages;
  std::vector<KeySchemaElement> key_schema;
  bool open = true;
  int64_t creation_ms = 0;
  uint64_t last_sequence = 0;
  int64_t last_shard_ms = 0;
  // A Kinesis feed's (engine/kinesis/kinesis_feed.h): the last sequence number its destination
  // has taken; 0 for a DynamoDB stream.
  uint64_t delivered = 0;
  std::vector<StreamShardState> shards;  // in opening order
  std::vector<StreamRecord> records;     // in sequence order
};

// Told of each record a stream adds, on the committing thread before the commit ends (under the
// table's write lock), with the change that made it: the write-ahead log keeps the two together
// (engine/persistence/journal.h), through the change's LogSlot.
class StreamRecordSink {
 public:
  virtual ~StreamRecordSink() = default;
  virtual void Recorded(const ChangeRecord& change, std::string_view stream_arn,
                        const StreamRecord& record) = 0;
};

}  // namespace ddbd
