// A table's Contributor Insights counters: one KeyTraffic for the table and for each global
// secondary index whose setting is enabled (ENABLING counts already, DISABLING no longer). The
// catalog keeps one per table that has any (TableEntry::insights), made anew by Sync whenever the
// table's description changes; item calls find it in their ItemTable and count into it.
//
// Thread safety: immutable once made; the KeyTraffic it holds locks itself.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/contributor_insights.h"
#include "engine/api/tables.h"
#include "engine/capacity/key_traffic.h"

namespace ddbd {

// The key schema of the table (`index_name` empty) or of its global secondary index: what a
// Contributor Insights resource is keyed by; null for an index the table does not have.
const std::vector<KeySchemaElement>* InsightKeySchema(const TableDescription& table,
                                                      const std::string& index_name);

class ContributorTraffic {
 public:
  struct Resource {
    std::string index_name;  // empty: the table
    int64_t rules_created_ms = 0;
    std::shared_ptr<KeyTraffic> traffic;
  };

  // The counters `table`'s settings ask for: null when none is enabled. A resource still enabled
  // from the same enabling in the same mode keeps `previous`'s counts.
  static std::shared_ptr<const ContributorTraffic> Sync(
      const TableDescription& table, const std::shared_ptr<const ContributorTraffic>& previous);

  // Null when the table's own setting is off.
  KeyTraffic* table() const { return table_; }
  // The global index's; null when off (or no such index).
  KeyTraffic* index(std::string_view name) const;
  bool any_index() const { return resources_.size() > (table_ != nullptr ? 1u : 0u); }
  const std::vector<Resource>& resources() const { return resources_; }

 private:
  std::vector<Resource> resources_;  // the table's first, if enabled
  KeyTraffic* table_ = nullptr;
};

}  // namespace ddbd
