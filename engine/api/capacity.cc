#include "engine/api/capacity.h"

namespace ddbd {
namespace {

void AddTo(std::vector<std::pair<std::string, double>>& parts, const std::string& name,
           double units) {
  for (auto& [known, total] : parts) {
    if (known == name) {
      total += units;
      return;
    }
  }
  parts.emplace_back(name, units);
}

}  // namespace

double ConsumedCapacity::total() const {
  double sum = table_units;
  for (const auto& [name, units] : global_indexes) sum += units;
  for (const auto& [name, units] : local_indexes) sum += units;
  return sum;
}

void ConsumedCapacity::AddIndex(const std::string& name, bool global, double units) {
  if (units == 0) return;
  AddTo(global ? global_indexes : local_indexes, name, units);
}

void ConsumedCapacity::Add(const ConsumedCapacity& other) {
  table_units += other.table_units;
  for (const auto& [name, units] : other.global_indexes) AddTo(global_indexes, name, units);
  for (const auto& [name, units] : other.local_indexes) AddTo(local_indexes, name, units);
}

}  // namespace ddbd
