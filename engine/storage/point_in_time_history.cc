#include "engine/storage/point_in_time_history.h"

#include <algorithm>

namespace ddbd {

PointInTimeHistory::PointInTimeHistory(const Clock& clock, int64_t start_ms, int64_t max_bytes,
                                       int64_t max_age_ms)
    : clock_(clock), max_bytes_(max_bytes), max_age_ms_(max_age_ms), earliest_ms_(start_ms) {}

void PointInTimeHistory::SetMaxAge(int64_t max_age_ms) {
  max_age_ms_.store(max_age_ms, std::memory_order_relaxed);
}

size_t PointInTimeHistory::BytesOf(const Entry& entry) {
  // The copies, plus what a deque slot and a string header cost.
  return entry.undo.key.size() + (entry.undo.before ? entry.undo.before->blob.size() : 0) + 96;
}

void PointInTimeHistory::OnCommit(const ChangeRecord& change) {
  if (change.kind == ChangeKind::kNone) return;
  const int64_t now_ms = clock_.NowMs();
  Entry entry;
  entry.ms = now_ms;
  entry.undo.key = std::string(change.key);
  if (!change.old_item.empty()) {
    entry.undo.before = StoredItem{std::string(change.old_item), change.old_size};
  }
  bytes_ += BytesOf(entry);
  entries_.push_back(std::move(entry));
  const int64_t oldest_kept = now_ms - max_age_ms_.load(std::memory_order_relaxed);
  while (!entries_.empty() && entries_.front().ms < oldest_kept) {
    bytes_ -= BytesOf(entries_.front());
    entries_.pop_front();
    ++first_number_;
  }
  int64_t trimmed_through = 0;
  while (bytes_ > static_cast<size_t>(max_bytes_) && !entries_.empty()) {
    trimmed_through = entries_.front().ms;
    bytes_ -= BytesOf(entries_.front());
    entries_.pop_front();
    ++first_number_;
  }
  // Changes up to the last one dropped can no longer be undone.
  if (trimmed_through > earliest_ms_.load(std::memory_order_relaxed)) {
    earliest_ms_.store(trimmed_through, std::memory_order_release);
  }
}

std::vector<PointInTimeHistory::Undo> PointInTimeHistory::UndosAfter(int64_t moment_ms) const {
  std::vector<Undo> undos;
  for (auto it = entries_.rbegin(); it != entries_.rend() && it->ms > moment_ms; ++it) {
    undos.push_back(it->undo);
  }
  return undos;
}

uint64_t PointInTimeHistory::ChangesAfter(int64_t moment_ms, uint64_t from,
                                          const VisitChange& visit) const {
  const uint64_t next = first_number_ + entries_.size();
  for (uint64_t number = std::max(from, first_number_); number < next; ++number) {
    const Entry& entry = entries_[number - first_number_];
    if (entry.ms > moment_ms) visit(entry.ms, entry.undo);
  }
  return next;
}

}  // namespace ddbd
