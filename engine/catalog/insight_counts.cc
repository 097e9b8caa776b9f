#include "engine/catalog/insight_counts.h"

#include <string>

namespace ddbd::insights_detail {
namespace {

auto InItem(const Item& item) {
  return [&item](std::string_view name) { return FindAttribute(item, name); };
}

// Whether `error` is a throttle Contributor Insights counts: ProvisionedThroughputExceeded or
// ThrottlingException of the table's capacity (a global index's own reason starts "Index").
bool TableThrottle(const Error& error) {
  if (error.code() != ErrorCode::kProvisionedThroughputExceeded &&
      error.code() != ErrorCode::kThrottling) {
    return false;
  }
  const ThrottlingReason* reason = error.throttling_reason();
  return reason == nullptr || !std::string_view(reason->reason).starts_with("Index");
}

}  // namespace

void CountAccess(const ContributorTraffic& traffic, const Item& key, const Item* indexed,
                 const ConsumedCapacity& consumed, bool write, int64_t now_ms) {
  const double weight = write ? 3 : 1;
  if (KeyTraffic* table = traffic.table()) {
    // Local indexes consume the table's capacity.
    double units = consumed.table_units;
    for (const auto& [name, index_units] : consumed.local_indexes) units += index_units;
    table->Accessed(InItem(key), true, weight * units, now_ms);
  }
  if (indexed == nullptr || !traffic.any_index()) return;
  for (const auto& [name, units] : consumed.global_indexes) {
    if (KeyTraffic* index = traffic.index(name)) {
      index->Accessed(InItem(*indexed), true, weight * units, now_ms);
    }
  }
}

void CountThrottle(const ContributorTraffic& traffic, const Item& key, const Error& error,
                   int64_t now_ms) {
  KeyTraffic* table = traffic.table();
  if (table != nullptr && TableThrottle(error)) table->Throttled(InItem(key), true, now_ms);
}

void CountQuery(const ContributorTraffic& traffic, std::string_view global_index,
                const std::vector<KeyTerm>& terms, const ConsumedCapacity* consumed,
                const Error* throttle, int64_t now_ms) {
  KeyTraffic* counted = global_index.empty() ? traffic.table() : traffic.index(global_index);
  if (counted == nullptr) return;
  // A Query names its partition by equality conditions on every partition key attribute.
  auto partition = [&terms](std::string_view name) -> const AttributeValue* {
    for (const KeyTerm& term : terms) {
      if (term.op == KeyTerm::Op::kEq && term.attribute == name && !term.values.empty()) {
        return &term.values.front();
      }
    }
    return nullptr;
  };
  if (throttle != nullptr) {
    if (throttle->code() == ErrorCode::kProvisionedThroughputExceeded ||
        throttle->code() == ErrorCode::kThrottling) {
      counted->Throttled(partition, false, now_ms);
    }
    return;
  }
  if (consumed == nullptr) return;
  double units = 0;
  if (global_index.empty()) {
    units = consumed->table_units;
    for (const auto& [name, index_units] : consumed->local_indexes) units += index_units;
  } else {
    for (const auto& [name, index_units] : consumed->global_indexes) {
      if (name == global_index) units += index_units;
    }
  }
  counted->Accessed(partition, false, units, now_ms);
}

}  // namespace ddbd::insights_detail
