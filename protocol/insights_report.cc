#include "protocol/insights_report.h"

#include "protocol/base64.h"
#include "protocol/json_writer.h"

namespace ddbd {

std::string InsightKeyText(const AttributeValue& value) {
  return value.type == AttributeType::kB ? Base64Encode(value.scalar) : value.scalar;
}

std::string InsightsReportJson(const std::string& table_name,
                               const std::vector<ContributorInsightsReport>& reports) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  writer.StartObject();
  json::Key(writer, "\"TableName\"");
  json::String(writer, table_name);
  json::Key(writer, "\"WindowMinutes\"");
  writer.Int(kInsightWindowMinutes);
  json::Key(writer, "\"Resources\"");
  writer.StartArray();
  for (const ContributorInsightsReport& report : reports) {
    writer.StartObject();
    json::Key(writer, "\"TableName\"");
    json::String(writer, report.table_name);
    if (!report.index_name.empty()) {
      json::Key(writer, "\"IndexName\"");
      json::String(writer, report.index_name);
    }
    json::Key(writer, "\"ContributorInsightsMode\"");
    json::String(writer, report.mode == ContributorInsightsMode::kThrottledKeys
                             ? "THROTTLED_KEYS"
                             : "ACCESSED_AND_THROTTLED_KEYS");
    json::Key(writer, "\"StartTime\"");
    json::EpochSeconds(writer, report.window_start_ms);
    json::Key(writer, "\"EndTime\"");
    json::EpochSeconds(writer, report.window_end_ms);
    json::Key(writer, "\"Rules\"");
    writer.StartArray();
    for (const InsightRuleReport& rule : report.rules) {
      writer.StartObject();
      json::Key(writer, "\"RuleName\"");
      json::String(writer, rule.rule_name);
      json::Key(writer, "\"MetricName\"");
      json::String(writer, rule.throttled_keys ? "ThrottleCount" : "ConsumedThroughputUnits");
      json::Key(writer, "\"KeyLabels\"");
      writer.StartArray();
      for (const std::string& label : rule.key_labels) json::String(writer, label);
      writer.EndArray();
      json::Key(writer, "\"Contributors\"");
      writer.StartArray();
      for (const InsightContributor& contributor : rule.contributors) {
        writer.StartObject();
        json::Key(writer, "\"Keys\"");
        writer.StartArray();
        for (const AttributeValue& key : contributor.keys)
          json::String(writer, InsightKeyText(key));
        writer.EndArray();
        json::Key(writer, "\"ApproximateAggregateValue\"");
        json::Double(writer, contributor.value);
        json::Key(writer, "\"Maximum\"");
        json::Double(writer, contributor.maximum);
        writer.EndObject();
      }
      writer.EndArray();
      writer.EndObject();
    }
    writer.EndArray();
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddbd
