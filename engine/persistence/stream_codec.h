// Streams as the log and checkpoints keep them (tagged fields, fields.h): a stream's state
// without its records (checkpoints), one record (with the change that made it, and in
// checkpoints), and a stream's closing (disabled, or its table deleted).
#pragma once

#include <string>
#include <string_view>

#include "engine/error.h"
#include "engine/storage/stream_state.h"

namespace ddbd {

// kStream: the state without records.
std::string EncodeStreamState(const StreamState& state);
Result<StreamState> DecodeStreamState(std::string_view bytes);

// kStreamRecord: which stream, and the record.
std::string EncodeStreamRecord(std::string_view stream_arn, const StreamRecord& record);
struct StreamRecordFields {
  std::string_view stream_arn;  // a view into the bytes decoded
  StreamRecord record;
};
Result<StreamRecordFields> DecodeStreamRecord(std::string_view bytes);

// kStreamClosed: which stream, and when.
std::string EncodeStreamClosed(std::string_view stream_arn, int64_t closed_ms);
struct StreamClosedFields {
  std::string_view stream_arn;
  int64_t closed_ms = 0;
};
Result<StreamClosedFields> DecodeStreamClosed(std::string_view bytes);

// kStreamDelivered: which Kinesis feed (engine/kinesis/kinesis_feed.h), and up to which sequence
// number its destination has its records.
std::string EncodeStreamDelivered(std::string_view stream_arn, uint64_t sequence);
struct StreamDeliveredFields {
  std::string_view stream_arn;
  uint64_t sequence = 0;
};
Result<StreamDeliveredFields> DecodeStreamDelivered(std::string_view bytes);

}  // namespace ddbd
