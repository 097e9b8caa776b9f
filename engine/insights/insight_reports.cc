#include "engine/insights/insight_reports.h"

#include <string>

#include "engine/insights/insight_settings.h"

namespace ddbd {

std::vector<ContributorInsightsReport> ReportTraffic(const TableDescription& table,
                                                     const ContributorTraffic& traffic,
                                                     int64_t now_ms, size_t top) {
  std::vector<ContributorInsightsReport> reports;
  for (const ContributorTraffic::Resource& resource : traffic.resources()) {
    ContributorInsightsReport& report = reports.emplace_back();
    report.table_name = table.table_name;
    report.index_name = resource.index_name;
    report.mode = resource.traffic->counts_accesses()
                      ? ContributorInsightsMode::kAccessedAndThrottledKeys
                      : ContributorInsightsMode::kThrottledKeys;
    report.window_end_ms = now_ms;
    report.window_start_ms =
        (now_ms / KeyTraffic::kMinuteMs - (kInsightWindowMinutes - 1)) * KeyTraffic::kMinuteMs;
    report.rules = resource.traffic->Report(now_ms, top);
    ContributorInsightsSetting setting;
    setting.index_name = resource.index_name;
    setting.rules_created_ms = resource.rules_created_ms;
    setting.mode = report.mode;
    const std::vector<std::string> names = RuleNames(table, setting);
    for (size_t i = 0; i < report.rules.size() && i < names.size(); ++i) {
      report.rules[i].rule_name = names[i];
    }
  }
  return reports;
}

}  // namespace ddbd
