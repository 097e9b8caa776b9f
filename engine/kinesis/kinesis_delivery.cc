#include "engine/kinesis/kinesis_delivery.h"

#include <algorithm>
#include <shared_mutex>
#include <utility>

#include "engine/catalog/identifiers.h"
#include "engine/kinesis/streaming_destinations.h"
#include "engine/persistence/journal.h"

namespace ddbd {
namespace {

// PutRecords takes at most 500 records and 5 MiB; a record's JSON (and its base64 on the wire) is
// larger than its stored bytes, so a batch holds about 2 MiB of them.
constexpr size_t kBatchRecords = 500;
constexpr size_t kBatchBytes = size_t{2} << 20;
constexpr int64_t kFirstBackoffMs = 100;
constexpr int64_t kLastBackoffMs = 5'000;

}  // namespace

KinesisDelivery::KinesisDelivery(Catalog& catalog, KinesisStreams& streams, const Clock& clock)
    : catalog_(catalog), streams_(streams), clock_(clock) {}

std::vector<KinesisDelivery::Target> KinesisDelivery::Targets() const {
  std::vector<Target> targets;
  std::shared_lock lock(catalog_.mutex);
  for (const std::shared_ptr<TableStream>& stream : catalog_.streams.All()) {
    const StreamSummary& summary = stream->summary();
    if (!StreamDirectory::IsKinesisFeed(summary.stream_arn)) continue;
    auto table = catalog_.tables.find(summary.table_name);
    if (table == catalog_.tables.end()) continue;  // its table is gone: so is its destination
    for (const KinesisDestination& destination : table->second->description.kinesis_destinations) {
      // The destination this feed was enabled for, unless it failed since.
      if (StreamLabel(destination.enabled_ms) != summary.stream_label ||
          !destination.failure.empty()) {
        continue;
      }
      Target& target = targets.emplace_back();
      target.feed = stream;
      target.batch.stream_arn = destination.stream_arn;
      target.batch.table_name = summary.table_name;
      target.batch.region = catalog_.options.region;
      target.batch.precision = destination.precision;
      target.batch.feed_arn = summary.stream_arn;
      break;
    }
  }
  return targets;
}

bool KinesisDelivery::DeliverOnce() {
  bool more = false;
  for (Target& target : Targets()) more = Deliver(target) || more;
  return more;
}

bool KinesisDelivery::Deliver(Target& target) {
  const std::string& arn = target.batch.feed_arn;
  {
    std::lock_guard lock(mutex_);
    if (SteadyMs() < progress_[arn].retry_at_ms) return false;
  }
  const uint64_t after = target.feed->delivered();
  target.batch.records = target.feed->ReadAfter(after, kBatchRecords, kBatchBytes);
  if (target.batch.records.empty()) return false;
  const KinesisPutOutcome outcome = streams_.PutRecords(target.batch);
  const size_t delivered = std::min(outcome.delivered, target.batch.records.size());
  if (delivered > 0) {
    const uint64_t sequence = target.batch.records[delivered - 1].sequence;
    target.feed->SetDelivered(sequence);
    if (Journal* journal = catalog_.journal) journal->StreamDelivered(arn, sequence);
  }
  bool stream_not_found = false;
  {
    std::lock_guard lock(mutex_);
    Progress& progress = progress_[arn];
    progress.delivered += delivered;
    if (outcome.failure == KinesisPutOutcome::Failure::kNone) {
      progress.backoff_ms = 0;
      return target.batch.records.size() == kBatchRecords ||
             delivered < target.batch.records.size();
    }
    ++progress.failures;
    stream_not_found = outcome.failure == KinesisPutOutcome::Failure::kStreamNotFound;
    progress.backoff_ms = std::clamp(progress.backoff_ms * 2, kFirstBackoffMs, kLastBackoffMs);
    progress.retry_at_ms = SteadyMs() + progress.backoff_ms;
  }
  if (stream_not_found) {
    Fail(target.batch.table_name, target.feed->summary().stream_label, outcome.message);
  }
  return false;
}

void KinesisDelivery::Fail(const std::string& table_name, const std::string& feed_label,
                           const std::string& why) {
  const int64_t now_ms = clock_.NowMs();
  // Refused (nothing to change) when the destination moved on meanwhile: nothing is logged.
  (void)catalog_.ChangeMetadata(table_name, [&](TableDescription& table) {
    for (KinesisDestination& destination : table.kinesis_destinations) {
      if (StreamLabel(destination.enabled_ms) == feed_label && destination.enabled &&
          destination.failure.empty()) {
        FailDestination(destination, why, now_ms);
        return Status(Ok{});
      }
    }
    return Status(Error::Validation("no destination to fail"));
  });
}

std::vector<KinesisDeliveryFigures> KinesisDelivery::Figures() const {
  std::vector<KinesisDeliveryFigures> figures;
  const int64_t now_ms = clock_.NowMs();
  for (const Target& target : Targets()) {
    KinesisDeliveryFigures& feed = figures.emplace_back();
    feed.table_name = target.batch.table_name;
    feed.stream_arn = target.batch.stream_arn;
    const uint64_t after = target.feed->delivered();
    feed.pending = target.feed->CountAfter(after);
    if (feed.pending > 0) {
      const std::vector<StreamRecord> oldest = target.feed->ReadAfter(after, 1, kBatchBytes);
      if (!oldest.empty()) feed.lag_ms = std::max<int64_t>(0, now_ms - oldest[0].created_ms);
    }
    std::lock_guard lock(mutex_);
    if (auto it = progress_.find(target.batch.feed_arn); it != progress_.end()) {
      feed.delivered = it->second.delivered;
      feed.failures = it->second.failures;
    }
  }
  return figures;
}

}  // namespace ddbd
