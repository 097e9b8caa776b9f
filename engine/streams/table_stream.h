// One DynamoDB stream: a table's changes as records in shards, kept 24 hours. A table observer
// (TableItems::Observe) while its table has the stream enabled; after it is disabled or the table
// deleted, it stays readable until its records age out.
//
// Shards: one is open at a time; every `rollover_ms` (--stream-shard-rollover-ms) it is closed
// and a child whose ParentShardId names it opens, so consumers that follow lineage can be
// tested. Sequence numbers increase across the stream's shards; each shard reserves one at its
// opening as its StartingSequenceNumber, and a closed shard's EndingSequenceNumber is the last
// number given out before it closed.
//
// Memory is bounded twice: records older than 24 hours are trimmed, and so are the oldest once
// the stream holds more than `max_bytes`; reading a trimmed position is
// TrimmedDataAccessException, as past retention.
//
// With a store (--db-path) every record is handed to a sink as it is added, and the write-ahead
// log keeps it with the change that made it; checkpoints keep a stream's whole state (Dump), and
// replay rebuilds it (the state constructor, Restore, CloseAt), so streams survive restarts.
//
// Thread safety: every member may be called from any thread; a mutex of its own orders commits
// (which arrive under the table's write lock) and readers.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/streams.h"
#include "engine/api/tables.h"
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/storage/change.h"
#include "engine/storage/stream_state.h"

namespace ddbd {

// Where an iterator reads from: the next sequence number wanted in a shard.
struct ShardPosition {
  std::string shard_id;
  uint64_t sequence = 0;
};

struct ShardRecords {
  std::vector<StreamRecord> records;
  // Where the next read starts; absent once a closed shard is read to its end.
  std::optional<uint64_t> next_sequence;
};

class TableStream final : public CommitObserver {
 public:
  struct Settings {
    StreamSummary summary;
    StreamViewType view_type = StreamViewType::kNewAndOldImages;
    std::vector<KeySchemaElement> key_schema;
    int64_t rollover_ms = 4 * 3'600'000;
    int64_t max_bytes = int64_t{256} << 20;
    int64_t creation_ms = 0;  // 0: now
  };
  // `clock` must outlive the stream.
  TableStream(Settings settings, const Clock& clock);
  // A stream as a checkpoint kept it (its records follow through Restore). `settings` gives the
  // rollover and size bounds; the rest comes from `state`.
  TableStream(Settings settings, const Clock& clock, const StreamState& state);
  // Replay: the stream becomes `state` (same ARN), without records (they follow).
  void Reset(const StreamState& state);

  const StreamSummary& summary() const { return settings_.summary; }
  StreamViewType view_type() const { return settings_.view_type; }
  void OnCommit(const ChangeRecord& change) override;
  // From now on every record added is handed to `sink` (null: none) first.
  void SetSink(StreamRecordSink* sink);
  // Disabling the stream or deleting the table: the open shard closes, records stay readable.
  void Close() { CloseAt(clock_.NowMs()); }
  void CloseAt(int64_t now_ms);
  // Replay: a record the log or a checkpoint kept, put back in its shard (shards opened since
  // are opened first) unless the stream has it already (a checkpoint written while requests went
  // on may hold records that the log after it holds again).
  void Restore(StreamRecord record);
  // The whole state; with `records`, a copy of every record still kept.
  StreamState Dump(bool records) const;
  // Whether nothing is left to read: closed, and its last record past retention.
  bool Expired() const;
  StreamDescription Describe() const;

  // GetShardIterator's positions. ResourceNotFoundException for a shard the stream does not
  // have (or no longer has); TrimmedDataAccessException for a sequence number already trimmed;
  // ValidationException for one beyond the shard.
  using IteratorType = ShardIteratorType;
  Result<ShardPosition> Position(std::string_view shard_id, IteratorType type,
                                 std::optional<uint64_t> sequence) const;
  // Up to `limit` records (and about 1 MB) from `position`. TrimmedDataAccessException if
  // records it would read were trimmed; ResourceNotFoundException for a shard gone.
  Result<ShardRecords> Read(const ShardPosition& position, size_t limit) const;

  // A Kinesis feed's delivery (engine/kinesis/kinesis_feed.h): the last sequence number its
  // destination has taken (0: none), kept in Dump's state; and up to `limit` records (and about
  // `max_bytes`) numbered above `after`, across shards in order. `pending` counts the records
  // kept above `after`.
  uint64_t delivered() const;
  void SetDelivered(uint64_t sequence);
  std::vector<StreamRecord> ReadAfter(uint64_t after, size_t limit, size_t max_bytes) const;
  size_t CountAfter(uint64_t after) const;
  // A stream trigger's read (engine/triggers/stream_triggers.h): as ReadAfter, but only from the
  // shard that holds the first record above `after` (a batch never spans shards, as Lambda's do),
  // whose id goes to `shard_id`.
  std::vector<StreamRecord> ReadShardAfter(uint64_t after, size_t limit, size_t max_bytes,
                                           std::string& shard_id) const;
  // The last sequence number given out (0: none): where LATEST starts.
  uint64_t LastSequence() const;
  // Whether the stream is closed (disabled, or its table gone).
  bool Closed() const;

  size_t bytes() const;
  // Records added since the stream was enabled (or the server started), for metrics.
  uint64_t records_added() const { return records_added_.load(std::memory_order_relaxed); }

 private:
  struct Shard {
    ShardDescription description;
    int64_t opened_ms = 0;
    int64_t closed_ms = 0;
    std::deque<StreamRecord> records;
    uint64_t first_retained = 0;  // the lowest sequence still readable
  };
  // Under `mutex_`: rolls the open shard over if its time is up, and trims by age and size.
  void MaintainLocked(int64_t now_ms) const;
  void OpenShardLocked(int64_t now_ms, std::string parent) const;
  const Shard* FindLocked(std::string_view shard_id) const;
  // Whether a read from `sequence` in `shard` would miss trimmed records.
  static bool TrimmedBefore(const Shard& shard, uint64_t sequence);

  const Settings settings_;
  const Clock& clock_;
  const uint64_t id_hash_;  // for shard ids and event ids
  mutable std::mutex mutex_;
  // Mutable: reads trim and roll over lazily, as time passes.
  mutable std::deque<Shard> shards_;  // in opening order, which is ShardId order
  mutable uint64_t last_sequence_ = 0;
  mutable int64_t last_shard_ms_ = 0;
  mutable size_t bytes_ = 0;
  std::atomic<uint64_t> records_added_ = 0;
  StreamRecordSink* sink_ = nullptr;
  bool open_ = true;
  int64_t creation_ms_ = 0;
  uint64_t delivered_ = 0;
};

}  // namespace ddbd
