// Where Kinesis streaming destinations' records go: a Kinesis-compatible service the server
// gives the engine (EngineOptions::kinesis; --kinesis-endpoint, server/kinesis_streams.h), and
// what the engine's delivery (engine/kinesis/kinesis_delivery.h) reports of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/api/kinesis.h"
#include "engine/api/streams.h"

namespace ddbd {

// Records of one table on their way to its destination, in the order they are to arrive: each a
// stream record with both images (as DynamoDB sends to Kinesis), and what the record's JSON names
// beside it. `feed_arn` and a record's sequence number name it for good (its eventID).
struct KinesisBatch {
  std::string stream_arn;  // the Kinesis data stream's
  std::string table_name;
  std::string region;
  TimestampPrecision precision = TimestampPrecision::kMicrosecond;
  std::string feed_arn;
  std::vector<StreamRecord> records;
};

// What a PutRecords of a batch came to: how many of its first records the stream has taken
// (later ones may be sent again), and, when not all, why.
struct KinesisPutOutcome {
  enum class Failure : uint8_t {
    kNone,
    kUnreachable,     // no answer: tried again later
    kStreamNotFound,  // the stream is not there: the destination is ENABLE_FAILED
    kRefused,         // throttled, or any other error: tried again later
  };
  size_t delivered = 0;
  Failure failure = Failure::kNone;
  std::string message;  // the Kinesis error's code and message
};

// A Kinesis-compatible service (EngineOptions::kinesis). Called from the engine's delivery thread.
class KinesisStreams {
 public:
  virtual ~KinesisStreams() = default;
  virtual KinesisPutOutcome PutRecords(const KinesisBatch& batch) = 0;
};

// What delivery has done, per table with a feed (metrics).
struct KinesisDeliveryFigures {
  std::string table_name;
  std::string stream_arn;
  uint64_t delivered = 0;  // records taken by the stream since the server started
  uint64_t pending = 0;    // records kept for the stream, not yet taken
  uint64_t failures = 0;   // PutRecords calls that failed, since the server started
  int64_t lag_ms = 0;      // how long the oldest pending record has waited (0: none)
};

}  // namespace ddbd
