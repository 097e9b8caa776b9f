// What Contributor Insights counts for one table or global secondary index: the accesses and
// throttles of each partition key (rules PKC and PKT) and, with a sort key, of each item (SKC and
// SKT), as the Developer Guide's "CloudWatch contributor insights for DynamoDB: How it works"
// defines them: an access weighs its ConsumedThroughputUnits (3 x write units + read units), a
// throttle (ProvisionedThroughputExceeded, ThrottlingException) counts 1. A request naming one
// item is an event of both its partition and its item; a Query one event of its partition.
//
// Counted per minute over the last kInsightWindowMinutes minutes, each rule's minute in a bounded
// heavy-hitters sketch (engine/capacity/heavy_hitters.h), so memory stays bounded however many
// keys a table has: at most kKeysPerMinute keys per rule and minute.
//
// Thread safety: every member may be called from any thread (one mutex).
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "engine/api/contributor_insights.h"
#include "engine/capacity/heavy_hitters.h"
#include "engine/model/item_key.h"

namespace ddbd {

class KeyTraffic {
 public:
  static constexpr int64_t kMinuteMs = 60'000;
  static constexpr size_t kKeysPerMinute = kInsightMaxContributors;

  // `key`: the resource's key schema; `mode`: THROTTLED_KEYS counts throttles only.
  KeyTraffic(KeyParts key, ContributorInsightsMode mode);

  // Finds a key attribute's value by name in what a request names (an item, a Key, a Query's
  // key conditions); null when it names none (an item an index does not hold: no event).
  using KeyLookup = absl::FunctionRef<const AttributeValue*(std::string_view name)>;
  // `item`: the request named one item (an event of its partition and of its item); else only
  // its partition (a Query).
  void Accessed(KeyLookup key, bool item, double units, int64_t now_ms);
  void Throttled(KeyLookup key, bool item, int64_t now_ms);

  bool counts_accesses() const {
    return mode_ == ContributorInsightsMode::kAccessedAndThrottledKeys;
  }
  bool has_sort_key() const { return !key_.sort.empty(); }

  // Each counted rule's heaviest `top` keys over the window ending at `now_ms`, in RuleNames'
  // order (PKC, SKC, PKT, SKT, those counted); rule names left for the caller.
  std::vector<InsightRuleReport> Report(int64_t now_ms, size_t top) const;

 private:
  enum Rule : size_t { kPartitionsAccessed, kItemsAccessed, kPartitionsThrottled, kItemsThrottled };
  struct Minute {
    int64_t minute = -1;
    std::array<HeavyHitters, 4> rules{HeavyHitters(kKeysPerMinute), HeavyHitters(kKeysPerMinute),
                                      HeavyHitters(kKeysPerMinute), HeavyHitters(kKeysPerMinute)};
  };
  void Count(KeyLookup key, bool item, double weight, Rule partitions, int64_t now_ms);
  std::vector<AttributeValue> Decode(std::string_view id) const;

  KeyParts key_;
  ContributorInsightsMode mode_;
  mutable std::mutex mutex_;
  std::array<Minute, kInsightWindowMinutes> window_;  // by minute % kInsightWindowMinutes
};

}  // namespace ddbd
