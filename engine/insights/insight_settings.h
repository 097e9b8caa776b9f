// The Contributor Insights operations: each table's and global secondary index's setting kept in
// the table's description (through the catalog's one path, its log record, and restarts), its
// statuses, and the rules DynamoDB names for it (the Developer Guide's "CloudWatch contributor
// insights for DynamoDB: How it works"): DynamoDBContributorInsights-PKC-<table>-<ms> (most
// accessed partition keys) and -PKT- (most throttled), and with a sort key -SKC- and -SKT-
// (partition and sort keys), listed PKC, SKC, PKT, SKT as the AWS CLI's example shows them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/api/contributor_insights.h"
#include "engine/catalog/table_metadata.h"
#include "engine/clock.h"
#include "engine/error.h"

namespace ddbd {

// What the operations are given: the tables, the time, and --table-delay-ms, for which a change
// shows ENABLING or DISABLING before it settles.
struct InsightSettings {
  TableMetadata& catalog;
  const Clock& clock;
  int64_t delay_ms = 0;
};

ContributorInsightsStatus StatusAt(const ContributorInsightsSetting& setting, int64_t now_ms,
                                   int64_t delay_ms);

// The rules of `setting` in `table`: the throttled keys' alone in THROTTLED_KEYS mode.
std::vector<std::string> RuleNames(const TableDescription& table,
                                   const ContributorInsightsSetting& setting);

// ResourceNotFoundException for a table that is not here, or an index that is not one of its
// global secondary indexes.
Result<ContributorInsightsOutcome> UpdateContributorInsights(
    const InsightSettings& settings, const UpdateContributorInsightsArgs& args);
Result<ContributorInsightsDescription> DescribeContributorInsights(const InsightSettings& settings,
                                                                   const std::string& table_name,
                                                                   const std::string& index_name);
// Every table's (or `table_name`'s) resources that have had Contributor Insights, in table name
// order, each table before its indexes; pages of `max_results`.
Result<ContributorInsightsList> ListContributorInsights(const InsightSettings& settings,
                                                        const ListContributorInsightsArgs& args);

}  // namespace ddbd
