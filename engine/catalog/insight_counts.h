// What the item calls count for Contributor Insights (engine/capacity/key_traffic.h) over the
// ItemTable they found: nothing at all unless the table or one of its global indexes has it
// enabled, so the calls pay one null test when it is off.
//
// Counted as the Developer Guide's "CloudWatch contributor insights for DynamoDB: How it works"
// says: an access weighs 3 x write units + read units; a throttle counts 1, except a write's
// throttle caused by a global index's capacity; a Query is one event of its partition; PartiQL
// is not counted (its calls say so with `counted` false); a Scan names no key and counts nothing.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/api/reads.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

namespace insights_detail {
void CountAccess(const ContributorTraffic& traffic, const Item& key, const Item* indexed,
                 const ConsumedCapacity& consumed, bool write, int64_t now_ms);
void CountThrottle(const ContributorTraffic& traffic, const Item& key, const Error& error,
                   int64_t now_ms);
void CountQuery(const ContributorTraffic& traffic, std::string_view global_index,
                const std::vector<KeyTerm>& terms, const ConsumedCapacity* consumed,
                const Error* throttle, int64_t now_ms);
}  // namespace insights_detail

// An access of the item `key` names (a Key, or a put's item) that consumed `consumed`: the
// table's part to the table's counters, each global index's part to that index's, under the
// index key of `indexed` (the item as written; null: none known, the indexes count nothing).
inline void CountAccess(const ItemTable& table, const Item& key, const Item* indexed,
                        const ConsumedCapacity& consumed, bool write, int64_t now_ms) {
  if (table.insights) {
    insights_detail::CountAccess(*table.insights, key, indexed, consumed, write, now_ms);
  }
}

// A request for the item `key` names refused with `error`: counted if it is a throttle of the
// table's own capacity.
inline void CountThrottle(const ItemTable& table, const Item& key, const Error& error,
                          int64_t now_ms) {
  if (table.insights) insights_detail::CountThrottle(*table.insights, key, error, now_ms);
}

// A Query of the table (`global_index` empty; a local index's Query counts to the table) or of
// a global index: its consumption, or the throttle that refused it.
inline void CountQuery(const ItemTable& table, std::string_view global_index,
                       const std::vector<KeyTerm>& terms, const ConsumedCapacity* consumed,
                       const Error* throttle, int64_t now_ms) {
  if (table.insights) {
    insights_detail::CountQuery(*table.insights, global_index, terms, consumed, throttle, now_ms);
  }
}

}  // namespace ddbd
