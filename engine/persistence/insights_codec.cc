#include "engine/persistence/insights_codec.h"

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum Setting : uint32_t { kIndexName = 1, kEnabled, kChanged, kMode, kRulesCreated };

}  // namespace

std::string EncodeContributorInsights(const ContributorInsightsSetting& setting) {
  FieldWriter fields;
  if (!setting.index_name.empty()) fields.Bytes(kIndexName, setting.index_name);
  fields.Int(kEnabled, setting.enabled ? 1 : 0);
  fields.Int(kChanged, setting.changed_ms);
  fields.Int(kMode, static_cast<int64_t>(setting.mode));
  fields.Int(kRulesCreated, setting.rules_created_ms);
  return fields.Take();
}

std::optional<ContributorInsightsSetting> DecodeContributorInsights(std::string_view bytes) {
  FieldReader fields(bytes);
  ContributorInsightsSetting setting;
  while (fields.Next()) {
    const int64_t value = fields.integer();
    switch (fields.number()) {
      case kIndexName:
        setting.index_name = std::string(fields.text());
        break;
      case kEnabled:
        setting.enabled = value != 0;
        break;
      case kChanged:
        setting.changed_ms = value;
        break;
      case kMode:
        if (value == static_cast<int64_t>(ContributorInsightsMode::kThrottledKeys)) {
          setting.mode = ContributorInsightsMode::kThrottledKeys;
        }
        break;
      case kRulesCreated:
        setting.rules_created_ms = value;
        break;
      default:
        break;  // a later ddbd's field
    }
  }
  if (!fields.ok()) return std::nullopt;
  return setting;
}

}  // namespace ddbd
