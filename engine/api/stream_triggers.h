// Stream triggers (--stream-trigger): the engine reads a table's DynamoDB stream as Lambda's event
// source mapping does and hands batches of its records to a function the server gives it
// (server/stream_trigger_function.h: an HTTP POST of Lambda's event). What the engine's delivery
// (engine/triggers/stream_triggers.h) needs of each trigger and reports of it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/streams.h"
#include "engine/api/tables.h"

namespace ddbd {

// Records of one shard on their way to a trigger's function, in stream order.
struct StreamTriggerBatch {
  std::string stream_arn;
  std::string shard_id;
  std::string region;
  StreamViewType view_type = StreamViewType::kNewAndOldImages;
  std::vector<StreamRecord> records;
};

// What an invocation came to.
struct StreamTriggerOutcome {
  enum class Result : uint8_t {
    kSuccess,        // every record handled, or those before `first_failure`
    kFunctionError,  // the function ran and failed: the batch counts an attempt
    kUnreachable,    // not invoked (no answer, refused, throttled): tried again, no attempt counted
  };
  Result result = Result::kSuccess;
  // With ReportBatchItemFailures, a success naming failed records: the lowest sequence number
  // named (a record of the batch). Everything from it on is tried again.
  std::optional<uint64_t> first_failure;
  int status = 0;       // the HTTP status answered (0: none)
  std::string message;  // why, for the log and the failure destination
};

// Why records were given up (the failure destination's "condition").
enum class StreamTriggerDiscard : uint8_t { kRetryAttemptsExhausted, kRecordAgeExceeded };

// The function a trigger hands batches to. Called from the engine's trigger thread only.
class StreamTriggerFunction {
 public:
  virtual ~StreamTriggerFunction() = default;
  // Whether the trigger's filter criteria let `record` through (no criteria: every record).
  virtual bool Selects(const StreamTriggerBatch& batch, const StreamRecord& record) = 0;
  virtual StreamTriggerOutcome Invoke(const StreamTriggerBatch& batch) = 0;
  // `batch`'s records are given up for `why` after `invocations` invocations; `last` is the last
  // invocation's outcome (none when never invoked).
  virtual void Discard(const StreamTriggerBatch& batch, StreamTriggerDiscard why, int invocations,
                       const StreamTriggerOutcome& last) = 0;
  // The engine is stopping (any thread): an invocation in flight may give up at once, as not
  // reached (its batch is sent again after a restart).
  virtual void Stop() {}
};

// One --stream-trigger: Lambda's CreateEventSourceMapping parameters for a DynamoDB stream.
struct StreamTriggerSettings {
  std::string name;  // what the trigger's position is kept under: its table and URL
  std::string table_name;
  int batch_size = 100;            // BatchSize: 1 to 10,000
  int64_t batching_window_ms = 0;  // MaximumBatchingWindowInSeconds, 0 to 300 s
  bool start_at_latest = false;    // StartingPosition LATEST (else TRIM_HORIZON)
  int retry_attempts = -1;         // MaximumRetryAttempts: -1 (until the record expires)
  int64_t max_record_age_ms = -1;  // MaximumRecordAgeInSeconds: -1 (until the record expires)
  bool bisect_on_error = false;    // BisectBatchOnFunctionError
  std::shared_ptr<StreamTriggerFunction> function;
};

// What a trigger has done since the server started (metrics).
struct StreamTriggerFigures {
  std::string table_name;
  std::string name;
  std::string stream_arn;  // the stream it reads (empty: none yet)
  uint64_t delivered = 0;  // records its function handled
  uint64_t filtered = 0;   // records its filter criteria let go by
  uint64_t discarded = 0;  // records given up (to the failure destination)
  uint64_t invocations = 0;
  uint64_t function_errors = 0;  // invocations that failed (whole or partly)
  uint64_t unreachable = 0;      // invocations that reached no function
  uint64_t pending = 0;          // records of its stream not handled yet
  int64_t lag_ms = 0;            // how long the oldest pending record has waited (0: none)
};

}  // namespace ddbd
