// Contributor Insights' reports as GET /_ddbd/contributor-insights/<table> answers them (ddbd's
// own endpoint: DynamoDB publishes these to CloudWatch), in CloudWatch's words where it has them
// (GetInsightRuleReport: Contributors, Keys, ApproximateAggregateValue, KeyLabels; the rules'
// metrics ConsumedThroughputUnits and ThrottleCount):
//   {"TableName": T, "WindowMinutes": 5, "Resources": [{"TableName": T, "IndexName": I (a global
//    index's only), "ContributorInsightsMode": M, "StartTime": s, "EndTime": s, "Rules": [
//    {"RuleName": R, "MetricName": "ConsumedThroughputUnits" | "ThrottleCount", "KeyLabels":
//    [attribute names], "Contributors": [{"Keys": [values as text, binary in base64],
//    "ApproximateAggregateValue": n, "Maximum": busiest minute's n}]}]}]}
// Resources is empty while no resource of the table has Contributor Insights enabled.
#pragma once

#include <string>
#include <vector>

#include "engine/api/contributor_insights.h"

namespace ddbd {

std::string InsightsReportJson(const std::string& table_name,
                               const std::vector<ContributorInsightsReport>& reports);

// A key value as the report writes it: S and N as their text, B in base64.
std::string InsightKeyText(const AttributeValue& value);

}  // namespace ddbd
