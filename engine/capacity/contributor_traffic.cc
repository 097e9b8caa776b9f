#include "engine/capacity/contributor_traffic.h"

#include <utility>

namespace ddbd {
const std::vector<KeySchemaElement>* InsightKeySchema(const TableDescription& table,
                                                      const std::string& index_name) {
  if (index_name.empty()) return &table.key_schema;
  for (const IndexDescription& index : table.indexes) {
    if (index.is_global && index.definition.index_name == index_name) {
      return &index.definition.key_schema;
    }
  }
  return nullptr;
}

std::shared_ptr<const ContributorTraffic> ContributorTraffic::Sync(
    const TableDescription& table, const std::shared_ptr<const ContributorTraffic>& previous) {
  auto traffic = std::make_shared<ContributorTraffic>();
  for (const ContributorInsightsSetting& setting : table.contributor_insights) {
    if (!setting.enabled) continue;
    const std::vector<KeySchemaElement>* keys = InsightKeySchema(table, setting.index_name);
    if (keys == nullptr) continue;
    Resource resource{setting.index_name, setting.rules_created_ms, nullptr};
    if (previous) {
      for (const Resource& kept : previous->resources_) {
        if (kept.index_name == setting.index_name &&
            kept.rules_created_ms == setting.rules_created_ms &&
            kept.traffic->counts_accesses() ==
                (setting.mode == ContributorInsightsMode::kAccessedAndThrottledKeys)) {
          resource.traffic = kept.traffic;
        }
      }
    }
    if (!resource.traffic) {
      resource.traffic = std::make_shared<KeyTraffic>(
          KeyParts::Of(*keys, table.attribute_definitions), setting.mode);
    }
    // The table's first: table() and any_index() rely on it.
    if (setting.index_name.empty()) {
      traffic->resources_.insert(traffic->resources_.begin(), std::move(resource));
    } else {
      traffic->resources_.push_back(std::move(resource));
    }
  }
  if (traffic->resources_.empty()) return nullptr;
  if (traffic->resources_.front().index_name.empty()) {
    traffic->table_ = traffic->resources_.front().traffic.get();
  }
  return traffic;
}

KeyTraffic* ContributorTraffic::index(std::string_view name) const {
  for (const Resource& resource : resources_) {
    if (!resource.index_name.empty() && resource.index_name == name) return resource.traffic.get();
  }
  return nullptr;
}

}  // namespace ddbd
