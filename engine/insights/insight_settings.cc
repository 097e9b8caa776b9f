// Contributor Insights settings. DynamoDB's refusals here are not recorded: the texts are
// ddbd's own (docs/behaviour.md lists them).
#include "engine/insights/insight_settings.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "engine/capacity/contributor_traffic.h"

namespace ddbd {
namespace {

Error IndexNotFound(const std::string& index_name) {
  return Error::ResourceNotFound("Requested resource not found: Index: " + index_name +
                                 " not found");
}

const ContributorInsightsSetting* FindSetting(const TableDescription& table,
                                              const std::string& index_name) {
  for (const ContributorInsightsSetting& setting : table.contributor_insights) {
    if (setting.index_name == index_name) return &setting;
  }
  return nullptr;
}

}  // namespace

ContributorInsightsStatus StatusAt(const ContributorInsightsSetting& setting, int64_t now_ms,
                                   int64_t delay_ms) {
  if (now_ms < setting.changed_ms + delay_ms) {
    return setting.enabled ? ContributorInsightsStatus::kEnabling
                           : ContributorInsightsStatus::kDisabling;
  }
  return setting.enabled ? ContributorInsightsStatus::kEnabled
                         : ContributorInsightsStatus::kDisabled;
}

std::vector<std::string> RuleNames(const TableDescription& table,
                                   const ContributorInsightsSetting& setting) {
  const std::vector<KeySchemaElement>* keys = InsightKeySchema(table, setting.index_name);
  // A global index's key may have several partition attributes and no sort key.
  const bool sorted =
      keys != nullptr && std::any_of(keys->begin(), keys->end(), [](const KeySchemaElement& key) {
        return key.key_type == KeyType::kRange;
      });
  const std::string suffix =
      "-" + table.table_name + "-" + std::to_string(setting.rules_created_ms);
  std::vector<std::string> rules;
  auto add = [&](const char* kind) {
    rules.push_back("DynamoDBContributorInsights-" + (kind + suffix));
  };
  if (setting.mode == ContributorInsightsMode::kAccessedAndThrottledKeys) {
    add("PKC");
    if (sorted) add("SKC");
  }
  add("PKT");
  if (sorted) add("SKT");
  return rules;
}

Result<ContributorInsightsOutcome> UpdateContributorInsights(
    const InsightSettings& settings, const UpdateContributorInsightsArgs& args) {
  const int64_t now_ms = settings.clock.NowMs();
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
  // The change sees the table's metadata alone (TableMetadata::ChangeMetadata): its indexes are
  // looked at first.
  std::optional<TableDescription> described = settings.catalog.Describe(args.table_name);
  if (!described) return Error::TableResourceNotFound(args.table_name);
  if (InsightKeySchema(*described, args.index_name) == nullptr)
    return IndexNotFound(args.index_name);
  auto changed = settings.catalog.ChangeMetadata(args.table_name, [&](TableDescription& table) {
    ContributorInsightsSetting* setting = nullptr;
    for (ContributorInsightsSetting& kept : table.contributor_insights) {
      if (kept.index_name == args.index_name) setting = &kept;
    }
    if (setting == nullptr) {
      setting = &table.contributor_insights.emplace_back();
      setting->index_name = args.index_name;
    }
    // A new enabling makes new rules (named by its time); an enabled resource keeps its own.
    if (args.enable && !setting->enabled) setting->rules_created_ms = now_ms;
    if (args.enable)
      setting->mode = args.mode.value_or(
          setting->enabled ? setting->mode : ContributorInsightsMode::kAccessedAndThrottledKeys);
    setting->enabled = args.enable;
    setting->changed_ms = now_ms;
    mode = setting->mode;
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  ContributorInsightsOutcome outcome;
  outcome.table_name = args.table_name;
  outcome.index_name = args.index_name;
  outcome.status =
      args.enable ? ContributorInsightsStatus::kEnabling : ContributorInsightsStatus::kDisabling;
  outcome.mode = mode;
  outcome.ticket = changed.value();
  return outcome;
}

Result<ContributorInsightsDescription> DescribeContributorInsights(const InsightSettings& settings,
                                                                   const std::string& table_name,
                                                                   const std::string& index_name) {
  std::optional<TableDescription> table = settings.catalog.Describe(table_name);
  if (!table) return Error::TableResourceNotFound(table_name);
  if (InsightKeySchema(*table, index_name) == nullptr) return IndexNotFound(index_name);
  ContributorInsightsDescription described;
  described.table_name = table_name;
  described.index_name = index_name;
  const ContributorInsightsSetting* setting = FindSetting(*table, index_name);
  if (setting == nullptr) return described;  // never enabled: DISABLED
  const int64_t now_ms = settings.clock.NowMs();
  described.status = StatusAt(*setting, now_ms, settings.delay_ms);
  described.last_update_ms = setting->changed_ms;
  described.mode = setting->mode;
  if (setting->enabled) described.rules = RuleNames(*table, *setting);
  return described;
}

Result<ContributorInsightsList> ListContributorInsights(const InsightSettings& settings,
                                                        const ListContributorInsightsArgs& args) {
  std::vector<std::string> names;
  if (args.table_name) {
    if (!settings.catalog.Describe(*args.table_name))
      return Error::TableResourceNotFound(*args.table_name);
    names.push_back(*args.table_name);
  } else {
    names = settings.catalog.TableNames();
  }
  const int64_t now_ms = settings.clock.NowMs();
  std::vector<ContributorInsightsSummary> all;
  for (const std::string& name : names) {
    std::optional<TableDescription> table = settings.catalog.Describe(name);
    if (!table) continue;  // deleted meanwhile
    std::vector<const ContributorInsightsSetting*> kept;
    for (const ContributorInsightsSetting& setting : table->contributor_insights) {
      if (InsightKeySchema(*table, setting.index_name) != nullptr)
        kept.push_back(&setting);  // index gone
    }
    std::stable_sort(kept.begin(), kept.end(), [](const auto* a, const auto* b) {
      return a->index_name < b->index_name;  // the table ("") first
    });
    for (const ContributorInsightsSetting* setting : kept) {
      all.push_back({name, setting->index_name, StatusAt(*setting, now_ms, settings.delay_ms),
                     setting->mode});
    }
  }
  // The token names the last resource a page held: "<table>/<index>" (neither name holds '/').
  size_t start = 0;
  if (args.next_token) {
    const size_t slash = args.next_token->find('/');
    const std::pair<std::string, std::string> after{
        args.next_token->substr(0, slash),
        slash == std::string::npos ? "" : args.next_token->substr(slash + 1)};
    while (start < all.size() && std::pair(all[start].table_name, all[start].index_name) <= after) {
      ++start;
    }
  }
  const size_t page = static_cast<size_t>(std::clamp(args.max_results, 1, 100));
  ContributorInsightsList list;
  for (size_t i = start; i < all.size() && list.summaries.size() < page; ++i) {
    list.summaries.push_back(all[i]);
  }
  if (start + list.summaries.size() < all.size()) {
    const ContributorInsightsSummary& last = list.summaries.back();
    list.next_token = last.table_name + "/" + last.index_name;
  }
  return list;
}

}  // namespace ddbd
