// Stream triggers (--stream-trigger, engine/api/stream_triggers.h): each reads its table's DynamoDB
// stream as Lambda's event source mapping does and hands the records to its function in batches,
// in order, one batch in flight per trigger (a stream has one open shard at a time, and a
// child's records come after its parent's, so per shard and per stream are the same order).
//
// - Attaching: a trigger reads the stream its table has (LatestStreamArn), once there is one: the
//   table may be created, or its stream enabled, after the server starts. Its first position is
//   the one kept for it (--db-path), else its starting position: TRIM_HORIZON, the stream's
//   oldest record; LATEST, the stream's end when the server started (a stream enabled later is
//   read from its start: the trigger was there before its first record). A stream disabled and
//   enabled again has a new ARN: the trigger reads the old one to its end, then the new one from
//   its start, as a mapping re-created on the new ARN with TRIM_HORIZON would.
// - A batch: up to BatchSize records of one shard (and about 3 MiB), sent once BatchSize are
//   waiting or the oldest has waited the batching window. Records the filter criteria do not
//   select are passed over (and counted), never sent.
// - Failures, as Lambda's: a function error (or a partial batch response naming the batch's first
//   record) counts an attempt and the batch is invoked again, until MaximumRetryAttempts is
//   exceeded; with BisectBatchOnFunctionError a failed batch of more than one record is halved
//   first (no attempt counted); a partial batch response moves the position to the first record
//   it names. A function not reached is tried again after a backoff (100 ms doubling to 5 s)
//   without counting attempts. Records older than MaximumRecordAgeInSeconds are given up.
//   Records given up go to the function's Discard (the failure destination).
// - The position (the last record handled) is kept after each batch (TriggerPositions): at least
//   once across a crash, as Lambda's own delivery.
//
// Thread safety: DeliverOnce from one thread at a time (the engine's trigger task); Figures from
// any.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/api/stream_triggers.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"
#include "engine/triggers/trigger_positions.h"

namespace ddbd {

class StreamTriggers {
 public:
  // `positions` is loaded already.
  StreamTriggers(Catalog& catalog, std::vector<StreamTriggerSettings> triggers,
                 std::unique_ptr<TriggerPositions> positions, const Clock& clock);
  // One batch for each trigger with records waiting and no backoff running. True when a trigger
  // has more waiting (run again at once).
  bool DeliverOnce();
  std::vector<StreamTriggerFigures> Figures() const;
  // Tells every trigger's function the engine is stopping (any thread), so a slow function does
  // not hold the stop up.
  void Stop();

 private:
  struct Lane {
    StreamTriggerSettings settings;
    std::shared_ptr<TableStream> stream;  // the stream it reads; null until attached
    uint64_t position = 0;                // the last record handled
    int attempts = 0;                     // failed invocations of the batch at `position`
    int invocations = 0;                  // invocations of that batch (approximateInvokeCount)
    size_t limit = 0;                     // while bisecting: the most records a batch takes
    uint64_t bisect_until = 0;            // bisecting until the position reaches this
    int64_t retry_at_ms = 0;              // a backoff: nothing is sent before (steady clock)
    int64_t backoff_ms = 0;
    StreamTriggerFigures figures;
  };
  // Finds (or follows) the lane's stream; false when it has none to read.
  bool Attach(Lane& lane);
  // One batch of the lane's; true when more records wait behind it.
  bool Step(Lane& lane);
  // The lane has handled every record up to `sequence`.
  void Advance(Lane& lane, uint64_t sequence);
  void Backoff(Lane& lane, int64_t first_ms, int64_t last_ms);

  Catalog& catalog_;
  const Clock& clock_;
  std::unique_ptr<TriggerPositions> positions_;
  bool first_pass_done_ = false;
  mutable std::mutex mutex_;  // guards what Figures reads of the lanes
  std::vector<Lane> lanes_;
};

}  // namespace ddbd
