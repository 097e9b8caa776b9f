#include "engine/capacity/key_traffic.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace ddbd {
namespace {

// A key's identity in a sketch: each value's length (4 bytes) and bytes, partition attributes
// then sort attributes. Values are canonical (numbers as DynamoDB writes them), so one key has
// one identity.
void AppendValue(std::string& id, const std::string& scalar) {
  const auto size = static_cast<uint32_t>(scalar.size());
  for (int shift = 0; shift < 32; shift += 8)
    id.push_back(static_cast<char>((size >> shift) & 0xFF));
  id += scalar;
}

bool AppendParts(std::string& id, const std::vector<KeyPart>& parts, KeyTraffic::KeyLookup key) {
  for (const KeyPart& part : parts) {
    const AttributeValue* value = key(part.name);
    if (value == nullptr || value->type != part.type) return false;
    AppendValue(id, value->scalar);
  }
  return true;
}

}  // namespace

KeyTraffic::KeyTraffic(KeyParts key, ContributorInsightsMode mode)
    : key_(std::move(key)), mode_(mode) {}

void KeyTraffic::Accessed(KeyLookup key, bool item, double units, int64_t now_ms) {
  if (!counts_accesses()) return;
  Count(key, item, units, kPartitionsAccessed, now_ms);
}

void KeyTraffic::Throttled(KeyLookup key, bool item, int64_t now_ms) {
  Count(key, item, 1, kPartitionsThrottled, now_ms);
}

void KeyTraffic::Count(KeyLookup key, bool item, double weight, Rule partitions, int64_t now_ms) {
  std::string id;
  if (!AppendParts(id, key_.partition, key)) return;
  const size_t partition_bytes = id.size();
  const bool whole = item && has_sort_key() && AppendParts(id, key_.sort, key);
  const int64_t minute = now_ms / kMinuteMs;
  std::lock_guard lock(mutex_);
  Minute& slot = window_[static_cast<size_t>(minute % kInsightWindowMinutes)];
  if (slot.minute != minute) {
    for (HeavyHitters& rule : slot.rules) rule.Clear();
    slot.minute = minute;
  }
  slot.rules[partitions].Add(std::string_view(id).substr(0, partition_bytes), weight);
  if (whole) slot.rules[partitions + 1].Add(id, weight);
}

std::vector<AttributeValue> KeyTraffic::Decode(std::string_view id) const {
  std::vector<AttributeValue> values;
  for (const std::vector<KeyPart>* parts : {&key_.partition, &key_.sort}) {
    for (const KeyPart& part : *parts) {
      if (id.size() < 4) return values;
      uint32_t size = 0;
      for (size_t i = 0; i < 4; ++i) {
        size |= static_cast<uint32_t>(static_cast<uint8_t>(id[i])) << (8 * i);
      }
      id.remove_prefix(4);
      AttributeValue value;
      value.type = part.type;
      value.scalar = std::string(id.substr(0, size));
      id.remove_prefix(std::min<size_t>(size, id.size()));
      values.push_back(std::move(value));
    }
  }
  return values;
}

std::vector<InsightRuleReport> KeyTraffic::Report(int64_t now_ms, size_t top) const {
  const int64_t minute = now_ms / kMinuteMs;
  std::vector<InsightRuleReport> reports;
  std::vector<std::string> partition_labels;
  for (const KeyPart& part : key_.partition) partition_labels.push_back(part.name);
  std::vector<std::string> item_labels = partition_labels;
  for (const KeyPart& part : key_.sort) item_labels.push_back(part.name);
  std::lock_guard lock(mutex_);
  for (Rule rule : {kPartitionsAccessed, kItemsAccessed, kPartitionsThrottled, kItemsThrottled}) {
    const bool throttles = rule == kPartitionsThrottled || rule == kItemsThrottled;
    const bool items = rule == kItemsAccessed || rule == kItemsThrottled;
    if ((!throttles && !counts_accesses()) || (items && !has_sort_key())) continue;
    struct Sum {
      double value = 0;
      double maximum = 0;
    };
    absl::flat_hash_map<absl::string_view, Sum> sums;
    for (const Minute& slot : window_) {
      if (slot.minute < 0 || slot.minute <= minute - kInsightWindowMinutes ||
          slot.minute > minute) {
        continue;
      }
      for (const HeavyHitters::Entry& entry : slot.rules[rule].entries()) {
        Sum& sum = sums[absl::string_view(entry.key)];
        sum.value += entry.weight;
        sum.maximum = std::max(sum.maximum, entry.weight);
      }
    }
    std::vector<std::pair<absl::string_view, Sum>> ranked(sums.begin(), sums.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.second.value != b.second.value ? a.second.value > b.second.value : a.first < b.first;
    });
    if (ranked.size() > top) ranked.resize(top);
    InsightRuleReport& report = reports.emplace_back();
    report.throttled_keys = throttles;
    report.key_labels = items ? item_labels : partition_labels;
    report.partition_labels = partition_labels.size();
    for (const auto& [id, sum] : ranked) {
      report.contributors.push_back(
          {Decode(std::string_view(id.data(), id.size())), sum.value, sum.maximum});
    }
  }
  return reports;
}

}  // namespace ddbd
