// What Contributor Insights' rules report, from a table's counters
// (engine/capacity/contributor_traffic.h), each rule named as DynamoDB names it (RuleNames).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/api/contributor_insights.h"
#include "engine/api/tables.h"
#include "engine/capacity/contributor_traffic.h"

namespace ddbd {

// What each enabled resource of `table` reports at `now_ms`: its rules, named, heaviest `top`
// keys each.
std::vector<ContributorInsightsReport> ReportTraffic(const TableDescription& table,
                                                     const ContributorTraffic& traffic,
                                                     int64_t now_ms, size_t top);

}  // namespace ddbd
