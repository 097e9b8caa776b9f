#include "engine/api/statistics.h"

namespace ddbd {

namespace {

// The bounds in nanoseconds: Observe compares integers.
constexpr std::array<int64_t, LatencyHistogram::kBoundsSeconds.size()> BoundsNanoseconds() {
  std::array<int64_t, LatencyHistogram::kBoundsSeconds.size()> bounds = {};
  for (size_t i = 0; i < bounds.size(); ++i) {
    bounds[i] = static_cast<int64_t>(LatencyHistogram::kBoundsSeconds[i] * 1e9 + 0.5);
  }
  return bounds;
}
constexpr auto kBoundsNanoseconds = BoundsNanoseconds();

}  // namespace

void LatencyHistogram::Observe(int64_t nanoseconds) {
  size_t bucket = 0;
  while (bucket < kBoundsNanoseconds.size() && nanoseconds > kBoundsNanoseconds[bucket]) ++bucket;
  counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_nanoseconds_.fetch_add(static_cast<uint64_t>(nanoseconds < 0 ? 0 : nanoseconds),
                             std::memory_order_relaxed);
}

LatencyHistogram::Snapshot LatencyHistogram::Read() const {
  Snapshot snapshot;
  for (size_t i = 0; i < counts_.size(); ++i) {
    snapshot.counts[i] = counts_[i].load(std::memory_order_relaxed);
    snapshot.count += snapshot.counts[i];
  }
  snapshot.sum_seconds =
      static_cast<double>(sum_nanoseconds_.load(std::memory_order_relaxed)) / 1e9;
  return snapshot;
}

void LatencyHistogram::Add(const Snapshot& from, Snapshot& to) {
  for (size_t i = 0; i < from.counts.size(); ++i) to.counts[i] += from.counts[i];
  to.count += from.count;
  to.sum_seconds += from.sum_seconds;
}

}  // namespace ddbd
