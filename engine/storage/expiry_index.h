// Time to Live: when an item expires, and the per-table index of items by expiry time that lets
// the sweeper find due items without scanning the table.
//
// DynamoDB's rules (pinned by tests/engine/time_to_live_test.cc): the TTL attribute must be a
// Number of epoch seconds, fractions and exponents included; an item expires once that time is
// at or before now, unless it is more than five years in the past (then it is ignored); any other
// type never expires.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/storage/change.h"
#include "engine/storage/table_items.h"

namespace ddbd {

// Items whose TTL lies further back than this are never deleted.
inline constexpr int64_t kTimeToLiveHorizonMs = int64_t{1826} * 24 * 3600 * 1000;  // 5 years

// When a Number of epoch seconds (DynamoDB's text) falls, in epoch milliseconds rounded up, so
// that "expired" is `expires_ms <= now_ms`; clamped to int64. nullopt if it is not a number.
std::optional<int64_t> ExpiryMsOf(std::string_view epoch_seconds);
// Whether an item expiring at `expires_ms` is due for deletion at `now_ms`.
bool IsDue(int64_t expires_ms, int64_t now_ms);

// One table's items that have a numeric TTL attribute, ordered by expiry. A table's observer
// (TableItems::Observe): every change keeps it in step, under the table's write lock.
//
// Thread safety: OnCommit comes from writers, Due from the sweeper; an internal mutex orders
// them.
class ExpiryIndex final : public CommitObserver {
 public:
  explicit ExpiryIndex(std::string attribute_name) : attribute_name_(std::move(attribute_name)) {}
  // A new index on `attribute_name`, filled from the items `items` already holds and attached to
  // it as an observer (TableItems::Observe: readers go on meanwhile, writers wait).
  static std::shared_ptr<ExpiryIndex> Attach(TableItems& items, std::string attribute_name);

  const std::string& attribute_name() const { return attribute_name_; }
  // When the item in `blob` expires, if its TTL attribute is a Number.
  std::optional<int64_t> ExpiryOf(std::string_view blob) const;

  void OnCommit(const ChangeRecord& change) override;
  // Items stored before the index was made (TableItems::Observe's `existing`), gathered, then
  // put in at once, in order (a million in well under a second, where one by one took seconds).
  void Gather(std::string_view key, std::string_view blob);
  void AddGathered();
  // The keys of up to `limit` items due at `now_ms`, earliest first.
  std::vector<std::string> Due(int64_t now_ms, size_t limit) const;
  size_t size() const;

 private:
  const std::string attribute_name_;
  mutable std::mutex mutex_;
  std::set<std::pair<int64_t, std::string>> entries_;  // (expires_ms, item key)
  std::vector<std::pair<int64_t, std::string>> gathered_;
};

}  // namespace ddbd
