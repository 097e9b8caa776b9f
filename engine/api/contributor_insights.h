// CloudWatch Contributor Insights for DynamoDB (UpdateContributorInsights,
// DescribeContributorInsights, ListContributorInsights): per table and per global secondary
// index, a setting kept in the table's description, and the rules DynamoDB names for it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/durability.h"

namespace ddbd {

// In the model's order.
enum class ContributorInsightsStatus : uint8_t {
  kEnabling,
  kEnabled,
  kDisabling,
  kDisabled,
  kFailed
};
// ACCESSED_AND_THROTTLED_KEYS (unless set) or THROTTLED_KEYS.
enum class ContributorInsightsMode : uint8_t { kAccessedAndThrottledKeys, kThrottledKeys };

// One resource's setting as the table keeps it: settled enabled or not, shown ENABLING or
// DISABLING while the change takes --table-delay-ms.
struct ContributorInsightsSetting {
  std::string index_name;  // empty: the table itself
  bool enabled = false;
  int64_t changed_ms = 0;  // the last change: LastUpdateDateTime
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
  int64_t rules_created_ms = 0;  // the enabling that made its rules: their names' timestamp
};

struct UpdateContributorInsightsArgs {
  std::string table_name;
  std::string index_name;  // empty: the table
  bool enable = true;      // ContributorInsightsAction ENABLE, else DISABLE
  std::optional<ContributorInsightsMode> mode;
};

struct ContributorInsightsOutcome {
  std::string table_name;
  std::string index_name;
  ContributorInsightsStatus status = ContributorInsightsStatus::kEnabling;
  std::optional<ContributorInsightsMode> mode;
  Ticket ticket;
};

struct ContributorInsightsDescription {
  std::string table_name;
  std::string index_name;
  std::vector<std::string> rules;  // while enabled (or being enabled)
  ContributorInsightsStatus status = ContributorInsightsStatus::kDisabled;
  int64_t last_update_ms = 0;  // 0: never changed
  std::optional<ContributorInsightsMode> mode;
};

struct ListContributorInsightsArgs {
  std::optional<std::string> table_name;
  int max_results = 100;
  std::optional<std::string> next_token;
};

struct ContributorInsightsSummary {
  std::string table_name;
  std::string index_name;
  ContributorInsightsStatus status = ContributorInsightsStatus::kDisabled;
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
};

struct ContributorInsightsList {
  std::vector<ContributorInsightsSummary> summaries;
  std::optional<std::string> next_token;
};

}  // namespace ddbd
