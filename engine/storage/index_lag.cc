#include "engine/storage/index_lag.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace ddbd {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

IndexLag::IndexLag(IndexLagOptions options)
    : options_(std::move(options)), random_(std::random_device{}()), first_due_ms_(kNone) {}

IndexLag::~IndexLag() {
  for (Change& change : changes_) {
    if (change.record != nullptr) ItemRecord::Destroy(change.record);
  }
}

int64_t IndexLag::NextDueMs() {
  int64_t delay_ms = options_.min_ms;
  if (options_.max_ms > options_.min_ms) {
    delay_ms = std::uniform_int_distribution<int64_t>(options_.min_ms, options_.max_ms)(random_);
  }
  // Never before the change queued before it: an entry's states keep their order.
  last_due_ms_ = std::max(last_due_ms_, options_.clock->NowMs() + delay_ms);
  return last_due_ms_;
}

void IndexLag::Push(Change change) {
  if (changes_.empty()) first_due_ms_.store(change.due_ms, std::memory_order_release);
  changes_.push_back(std::move(change));
  pending_.store(changes_.size(), std::memory_order_relaxed);
}

void IndexLag::QueueRemoval(int64_t due_ms, size_t slot, std::string key) {
  Push(Change{due_ms, slot, std::move(key), nullptr});
}

void IndexLag::QueueInsertion(int64_t due_ms, size_t slot, ItemRecord* record) {
  Push(Change{due_ms, slot, {}, record});
}

bool IndexLag::Due() const {
  const int64_t first = first_due_ms_.load(std::memory_order_acquire);
  if (first == kNone) return false;
  if (options_.paused && options_.paused->load(std::memory_order_relaxed)) return false;
  return first <= options_.clock->NowMs();
}

void IndexLag::TakeDue(bool all, const std::function<void(Change&)>& apply) {
  const bool held = options_.paused && options_.paused->load(std::memory_order_relaxed);
  if (held && !all) return;
  const int64_t now_ms = options_.clock->NowMs();
  while (!changes_.empty() && (all || changes_.front().due_ms <= now_ms)) {
    apply(changes_.front());
    changes_.pop_front();
  }
  first_due_ms_.store(changes_.empty() ? kNone : changes_.front().due_ms,
                      std::memory_order_release);
  pending_.store(changes_.size(), std::memory_order_relaxed);
}

std::vector<uint64_t> IndexLag::PendingBySlot() const {
  std::vector<uint64_t> counts;
  for (const Change& change : changes_) {
    if (counts.size() <= change.slot) counts.resize(change.slot + 1);
    ++counts[change.slot];
  }
  return counts;
}

}  // namespace ddbd
