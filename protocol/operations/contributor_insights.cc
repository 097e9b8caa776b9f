// UpdateContributorInsights, DescribeContributorInsights and ListContributorInsights: the
// engine's settings (engine/insights/insight_settings.h) on the wire.
#include <algorithm>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

// The engine's statuses and modes are the wire's, in the model's order.
wire::ContributorInsightsStatus InsightsWireStatus(ContributorInsightsStatus status) {
  static_assert(static_cast<int>(ContributorInsightsStatus::kFailed) ==
                static_cast<int>(wire::ContributorInsightsStatus::kFailed));
  return static_cast<wire::ContributorInsightsStatus>(status);
}

wire::ContributorInsightsMode WireMode(ContributorInsightsMode mode) {
  static_assert(static_cast<int>(ContributorInsightsMode::kThrottledKeys) ==
                static_cast<int>(wire::ContributorInsightsMode::kThrottledKeys));
  return static_cast<wire::ContributorInsightsMode>(mode);
}

}  // namespace

Status UpdateContributorInsights(Engine& engine, const wire::UpdateContributorInsightsInput& in,
                                 json::Writer& response, Ticket& ticket) {
  UpdateContributorInsightsArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.index_name = std::string(in.index_name.value_or(""));
  // The generated reader has checked both against their enums.
  args.enable = in.contributor_insights_action == "ENABLE";
  if (in.contributor_insights_mode) {
    args.mode = *in.contributor_insights_mode == "THROTTLED_KEYS"
                    ? ContributorInsightsMode::kThrottledKeys
                    : ContributorInsightsMode::kAccessedAndThrottledKeys;
  }
  auto updated = engine.UpdateContributorInsights(args);
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  const ContributorInsightsOutcome& outcome = updated.value();
  wire::Write<wire::out::UpdateContributorInsightsOutput>(response, [&](auto& out) {
    out.TableName(outcome.table_name);
    if (!outcome.index_name.empty()) out.IndexName(outcome.index_name);
    out.ContributorInsightsStatus(InsightsWireStatus(outcome.status));
    if (outcome.mode) out.ContributorInsightsMode(WireMode(*outcome.mode));
  });
  return Ok{};
}

Status DescribeContributorInsights(Engine& engine, const wire::DescribeContributorInsightsInput& in,
                                   json::Writer& response) {
  auto described = engine.DescribeContributorInsights(TableNameOf(engine, in.table_name),
                                                      std::string(in.index_name.value_or("")));
  if (!described.ok()) return described.error();
  const ContributorInsightsDescription& insights = described.value();
  wire::Write<wire::out::DescribeContributorInsightsOutput>(response, [&](auto& out) {
    out.TableName(insights.table_name);
    if (!insights.index_name.empty()) out.IndexName(insights.index_name);
    if (!insights.rules.empty()) {
      out.ContributorInsightsRuleList([&](wire::out::ContributorInsightsRuleList& rules) {
        for (const std::string& rule : insights.rules) rules.Add(rule);
      });
    }
    out.ContributorInsightsStatus(InsightsWireStatus(insights.status));
    if (insights.last_update_ms != 0) out.LastUpdateDateTime(insights.last_update_ms);
    if (insights.mode) out.ContributorInsightsMode(WireMode(*insights.mode));
  });
  return Ok{};
}

Status ListContributorInsights(Engine& engine, const wire::ListContributorInsightsInput& in,
                               json::Writer& response) {
  ListContributorInsightsArgs args;
  if (in.table_name) args.table_name = TableNameOf(engine, *in.table_name);
  if (in.max_results)
    args.max_results = static_cast<int>(std::clamp<int64_t>(*in.max_results, 1, 100));
  if (in.next_token) args.next_token = std::string(*in.next_token);
  auto listed = engine.ListContributorInsights(args);
  if (!listed.ok()) return listed.error();
  wire::Write<wire::out::ListContributorInsightsOutput>(response, [&](auto& out) {
    out.ContributorInsightsSummaries([&](wire::out::ContributorInsightsSummaries& list) {
      for (const ContributorInsightsSummary& summary : listed.value().summaries) {
        list.Add([&](wire::out::ContributorInsightsSummary& entry) {
          entry.TableName(summary.table_name);
          if (!summary.index_name.empty()) entry.IndexName(summary.index_name);
          entry.ContributorInsightsStatus(InsightsWireStatus(summary.status));
          entry.ContributorInsightsMode(WireMode(summary.mode));
        });
      }
    });
    if (listed.value().next_token) out.NextToken(*listed.value().next_token);
  });
  return Ok{};
}

}  // namespace ddbd::operations
