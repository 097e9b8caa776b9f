// What the engine reports for monitoring (/metrics): per table, the items and bytes it holds, the
// capacity it consumed and the changes its commit path made; for a database on disk, its log and
// checkpoints. Engine::Statistics gathers it; the figures are counted where the work is done.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/contributor_insights.h"
#include "engine/api/kinesis_delivery.h"
#include "engine/api/stream_triggers.h"

namespace ddbd {

// How long something took, in fixed buckets (Prometheus' histogram: counts per upper bound, a
// count and a sum). Observe is lock-free, for hot paths and background threads alike.
//
// Thread safety: any thread.
class LatencyHistogram {
 public:
  // Upper bounds in seconds; one more bucket holds the rest (+Inf).
  static constexpr std::array<double, 14> kBoundsSeconds = {
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5};
  void Observe(int64_t nanoseconds);

  struct Snapshot {
    std::array<uint64_t, kBoundsSeconds.size() + 1> counts = {};  // per bucket, not cumulative
    uint64_t count = 0;
    double sum_seconds = 0;
  };
  Snapshot Read() const;
  // Adds another snapshot's figures (several engines' figures under one name).
  static void Add(const Snapshot& from, Snapshot& to);

 private:
  std::array<std::atomic<uint64_t>, kBoundsSeconds.size() + 1> counts_ = {};
  std::atomic<uint64_t> sum_nanoseconds_ = 0;
};

struct IndexStatistics {
  std::string name;
  bool global = false;
  int64_t item_count = 0;
  int64_t size_bytes = 0;
  // A global index's entry changes still on their way to it (--gsi-lag-ms).
  uint64_t pending_changes = 0;
};

struct CapacityStatistics {
  std::string index;  // empty: the table's own units
  double read_units = 0;
  double write_units = 0;
};

struct TableStatistics {
  std::string name;
  int64_t item_count = 0;
  int64_t size_bytes = 0;
  std::vector<IndexStatistics> indexes = {};
  // Vector indexes: the vectors each holds and their f32 bytes (`global` unused).
  std::vector<IndexStatistics> vector_indexes = {};
  std::vector<CapacityStatistics> consumed = {};  // the table first, then indexes that consumed
  uint64_t inserts = 0;                           // changes the commit path made, by kind
  uint64_t modifies = 0;
  uint64_t removes = 0;
  uint64_t time_to_live_deletes = 0;
  bool stream_enabled = false;
  uint64_t stream_records = 0;  // added to its current stream
  uint64_t stream_bytes = 0;    // kept by it
};

// A database on disk (EngineOptions::db_path).
struct StoreStatistics {
  uint64_t log_bytes = 0;          // written since the last checkpoint: what a restart replays
  uint64_t log_written_bytes = 0;  // ever, since the start
  uint64_t log_records = 0;
  bool failing = false;                         // the log cannot be written now: writes are refused
  uint64_t write_failures = 0;                  // failed attempts to write or sync the log, ever
  LatencyHistogram::Snapshot sync = {};         // each fdatasync of the log
  LatencyHistogram::Snapshot checkpoints = {};  // each checkpoint written
};

struct EngineStatistics {
  std::vector<TableStatistics> tables;
  // Kinesis streaming destinations' delivery, per feed (with --kinesis-endpoint).
  std::vector<KinesisDeliveryFigures> kinesis;
  // Stream triggers (--stream-trigger), each.
  std::vector<StreamTriggerFigures> stream_triggers;
  // Contributor Insights: each enabled resource's rules, their heaviest kMetricsContributors keys.
  static constexpr size_t kMetricsContributors = 10;
  std::vector<ContributorInsightsReport> contributor_insights;
  std::optional<StoreStatistics> store;
};

}  // namespace ddbd
