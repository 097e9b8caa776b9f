// CloudWatch Contributor Insights for DynamoDB (UpdateContributorInsights,
// DescribeContributorInsights, ListContributorInsights): per table and per global secondary
// index, a setting kept in the table's description, and the rules DynamoDB names for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/durability.h"
#include "engine/model/attribute_value.h"

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

// What the rules report (Engine::ContributorInsightsReports): ddbd computes them from the accesses
// it serves, where DynamoDB publishes them to CloudWatch. Over the last kInsightWindowMinutes
// minutes, counted per minute.
inline constexpr int kInsightWindowMinutes = 5;
// The most keys a rule keeps per minute, so the most a report can list.
inline constexpr size_t kInsightMaxContributors = 64;

// One key's traffic: its attribute values (the rule's KeyLabels), its ConsumedThroughputUnits or
// ThrottleCount summed over the window (approximate: the heavy-hitters sketch may overstate it by
// the weight of a key it displaced), and its busiest minute's.
struct InsightContributor {
  std::vector<AttributeValue> keys;
  double value = 0;
  double maximum = 0;
};

struct InsightRuleReport {
  std::string rule_name;        // DynamoDBContributorInsights-PKC-<table>-<ms> and the others
  bool throttled_keys = false;  // ThrottleCount (PKT, SKT), else ConsumedThroughputUnits
  std::vector<std::string> key_labels;  // the partition key's attributes, then the sort key's
  size_t partition_labels = 1;  // how many of key_labels (and of each key) are the partition's
  std::vector<InsightContributor> contributors;  // heaviest first
};

// One enabled resource's rules: a table's or one of its global secondary indexes'.
struct ContributorInsightsReport {
  std::string table_name;
  std::string index_name;  // empty: the table
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
  int64_t window_start_ms = 0;           // the window's first minute
  int64_t window_end_ms = 0;             // now
  std::vector<InsightRuleReport> rules;  // PKC, SKC, PKT, SKT as RuleNames lists them
};

}  // namespace ddbd
