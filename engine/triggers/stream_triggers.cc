#include "engine/triggers/stream_triggers.h"

#include <algorithm>
#include <shared_mutex>
#include <utility>

namespace ddbd {
namespace {

// Lambda's invocation payload is at most 6 MB; a record's JSON is larger than its stored bytes.
constexpr size_t kPayloadBatchBytes = size_t{3} << 20;
constexpr int64_t kFirstUnreachedMs = 100;  // a function not reached
constexpr int64_t kLastUnreachedMs = 5'000;
constexpr int64_t kFirstRetryMs = 20;  // a function error: invoked again soon, as Lambda does
constexpr int64_t kLastRetryMs = 1'000;

}  // namespace

StreamTriggers::StreamTriggers(Catalog& catalog, std::vector<StreamTriggerSettings> triggers,
                               std::unique_ptr<TriggerPositions> positions, const Clock& clock)
    : catalog_(catalog), clock_(clock), positions_(std::move(positions)) {
  for (StreamTriggerSettings& settings : triggers) {
    Lane& lane = lanes_.emplace_back();
    lane.figures.table_name = settings.table_name;
    lane.figures.name = settings.name;
    lane.settings = std::move(settings);
  }
}

bool StreamTriggers::DeliverOnce() {
  bool more = false;
  for (Lane& lane : lanes_) {
    if (Attach(lane)) more = Step(lane) || more;
  }
  first_pass_done_ = true;
  return more;
}

bool StreamTriggers::Attach(Lane& lane) {
  std::shared_ptr<TableStream> current;
  {
    std::shared_lock lock(catalog_.mutex);
    auto table = catalog_.tables.find(lane.settings.table_name);
    if (table != catalog_.tables.end()) {
      const TableDescription& description = table->second->description;
      if (!description.latest_stream_label.empty()) {
        current = catalog_.streams.FindAny(description.table_arn + "/stream/" +
                                           description.latest_stream_label);
      }
    }
  }
  if (lane.stream) {
    // A newer stream (disabled and enabled again): once the old one is read to its end and
    // closed, nothing more can come from it.
    if (current && current != lane.stream && lane.stream->Closed() &&
        lane.stream->CountAfter(lane.position) == 0) {
      {
        std::lock_guard lock(mutex_);
        lane.stream = current;
        lane.figures.stream_arn = current->summary().stream_arn;
      }
      lane.attempts = lane.invocations = 0;
      lane.limit = 0;
      lane.bisect_until = 0;
      Advance(lane, 0);
    }
    return true;
  }
  if (!current) return false;
  std::shared_ptr<TableStream> stream = current;
  uint64_t position = 0;
  const TriggerPosition* kept = positions_->Find(lane.settings.name);
  if (kept && kept->stream_arn != current->summary().stream_arn) {
    // Kept for an older stream of the table: read what is left of it first, if it is still there.
    std::shared_lock lock(catalog_.mutex);
    if (auto older = catalog_.streams.FindAny(kept->stream_arn)) stream = std::move(older);
  }
  if (kept && kept->stream_arn == stream->summary().stream_arn) {
    // A log that lost its tail (--sync off and a power cut) numbers again from lower: nothing
    // the stream holds is passed over.
    position = std::min(kept->sequence, stream->LastSequence());
  } else if (lane.settings.start_at_latest && !first_pass_done_) {
    position = stream->LastSequence();
  }
  {
    std::lock_guard lock(mutex_);
    lane.stream = std::move(stream);
    lane.figures.stream_arn = lane.stream->summary().stream_arn;
  }
  Advance(lane, position);
  return true;
}

bool StreamTriggers::Step(Lane& lane) {
  if (SteadyMs() < lane.retry_at_ms) return false;
  const StreamTriggerSettings& settings = lane.settings;
  const size_t limit = lane.limit > 0 ? lane.limit : static_cast<size_t>(settings.batch_size);
  StreamTriggerBatch batch;
  batch.stream_arn = lane.stream->summary().stream_arn;
  batch.region = catalog_.options.region;
  batch.view_type = lane.stream->view_type();
  std::vector<StreamRecord> records =
      lane.stream->ReadShardAfter(lane.position, limit, kPayloadBatchBytes, batch.shard_id);
  if (records.empty()) return false;
  const bool full = records.size() == limit;
  const int64_t now_ms = clock_.NowMs();
  // The batching window: a batch short of BatchSize waits for more, until its oldest record has
  // waited the window (a batch being retried or bisected goes at once).
  if (!full && lane.invocations == 0 && lane.limit == 0 &&
      now_ms - records.front().created_ms < settings.batching_window_ms) {
    return false;
  }
  // Records past MaximumRecordAgeInSeconds are given up before anything is invoked.
  if (settings.max_record_age_ms >= 0) {
    size_t expired = 0;
    while (expired < records.size() &&
           now_ms - records[expired].created_ms > settings.max_record_age_ms) {
      ++expired;
    }
    if (expired > 0) {
      batch.records.assign(records.begin(), records.begin() + static_cast<ptrdiff_t>(expired));
      settings.function->Discard(batch, StreamTriggerDiscard::kRecordAgeExceeded, lane.invocations,
                                 {});
      {
        std::lock_guard lock(mutex_);
        lane.figures.discarded += expired;
      }
      lane.attempts = lane.invocations = 0;
      Advance(lane, records[expired - 1].sequence);
      return true;
    }
  }
  for (const StreamRecord& record : records) {
    if (settings.function->Selects(batch, record)) batch.records.push_back(record);
  }
  const uint64_t filtered = records.size() - batch.records.size();
  if (batch.records.empty()) {
    {
      std::lock_guard lock(mutex_);
      lane.figures.filtered += filtered;
    }
    Advance(lane, records.back().sequence);
    return full;
  }
  const StreamTriggerOutcome outcome = settings.function->Invoke(batch);
  ++lane.invocations;
  {
    std::lock_guard lock(mutex_);
    ++lane.figures.invocations;
    if (outcome.result == StreamTriggerOutcome::Result::kUnreachable) ++lane.figures.unreachable;
    if (outcome.result == StreamTriggerOutcome::Result::kFunctionError || outcome.first_failure) {
      ++lane.figures.function_errors;
    }
  }
  using Result = StreamTriggerOutcome::Result;
  if (outcome.result == Result::kUnreachable) {
    // Not invoked: no attempt counted; tried again until the records age out.
    --lane.invocations;
    Backoff(lane, kFirstUnreachedMs, kLastUnreachedMs);
    return false;
  }
  if (outcome.result == Result::kSuccess && !outcome.first_failure) {
    {
      std::lock_guard lock(mutex_);
      lane.figures.delivered += batch.records.size();
      lane.figures.filtered += filtered;
    }
    lane.attempts = lane.invocations = 0;
    lane.backoff_ms = 0;
    Advance(lane, records.back().sequence);
    return full;
  }
  if (outcome.first_failure && *outcome.first_failure > batch.records.front().sequence) {
    // A partial batch response: what came before the first record named is done; the rest is
    // invoked again from that record.
    const uint64_t done_until = *outcome.first_failure - 1;
    uint64_t handled = 0;
    uint64_t passed = 0;
    for (const StreamRecord& record : records) {
      if (record.sequence > done_until) break;
      ++passed;
    }
    for (const StreamRecord& record : batch.records) {
      if (record.sequence <= done_until) ++handled;
    }
    {
      std::lock_guard lock(mutex_);
      lane.figures.delivered += handled;
      lane.figures.filtered += passed - handled;
    }
    // The rest was invoked once: it goes again at once, not after a batching window.
    lane.attempts = 0;
    lane.invocations = 1;
    Backoff(lane, kFirstRetryMs, kLastRetryMs);
    Advance(lane, done_until);
    return false;
  }
  // The whole batch failed.
  if (settings.bisect_on_error && records.size() > 1) {
    // Halved, and invoked again at once; the halves go one after the other until the position
    // passes the failed batch's end. Splitting counts no attempt.
    // Each half is a batch of its own (its invocations counted anew).
    if (lane.bisect_until < records.back().sequence) lane.bisect_until = records.back().sequence;
    lane.limit = records.size() / 2;
    lane.invocations = 0;
    return true;
  }
  ++lane.attempts;
  if (settings.retry_attempts >= 0 && lane.attempts > settings.retry_attempts) {
    settings.function->Discard(batch, StreamTriggerDiscard::kRetryAttemptsExhausted,
                               lane.invocations, outcome);
    {
      std::lock_guard lock(mutex_);
      lane.figures.discarded += batch.records.size();
      lane.figures.filtered += filtered;
    }
    lane.attempts = lane.invocations = 0;
    lane.backoff_ms = 0;
    Advance(lane, records.back().sequence);
    return true;
  }
  Backoff(lane, kFirstRetryMs, kLastRetryMs);
  return false;
}

void StreamTriggers::Backoff(Lane& lane, int64_t first_ms, int64_t last_ms) {
  lane.backoff_ms = std::clamp(lane.backoff_ms * 2, first_ms, last_ms);
  lane.retry_at_ms = SteadyMs() + lane.backoff_ms;
}

void StreamTriggers::Advance(Lane& lane, uint64_t sequence) {
  {
    std::lock_guard lock(mutex_);
    lane.position = sequence;
  }
  if (lane.bisect_until > 0 && sequence >= lane.bisect_until) {
    lane.limit = 0;
    lane.bisect_until = 0;
  }
  const TriggerPosition position{lane.stream->summary().stream_arn, sequence};
  if (Status saved = positions_->Save(lane.settings.name, position);
      !saved.ok() && catalog_.options.log) {
    catalog_.options.log(Severity::kError,
                         "stream trigger " + lane.settings.name +
                             ": its position could not be kept: " + saved.error().message());
  }
}

void StreamTriggers::Stop() {
  for (Lane& lane : lanes_) lane.settings.function->Stop();
}

std::vector<StreamTriggerFigures> StreamTriggers::Figures() const {
  std::vector<StreamTriggerFigures> figures;
  const int64_t now_ms = clock_.NowMs();
  std::lock_guard lock(mutex_);
  for (const Lane& lane : lanes_) {
    StreamTriggerFigures& one = figures.emplace_back(lane.figures);
    if (!lane.stream) continue;
    one.pending = lane.stream->CountAfter(lane.position);
    if (one.pending > 0) {
      std::string shard;
      const std::vector<StreamRecord> oldest =
          lane.stream->ReadShardAfter(lane.position, 1, kPayloadBatchBytes, shard);
      if (!oldest.empty()) one.lag_ms = std::max<int64_t>(0, now_ms - oldest[0].created_ms);
    }
  }
  return figures;
}

}  // namespace ddbd
