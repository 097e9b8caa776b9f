#include "engine/capacity/capacity.h"

#include <algorithm>

namespace ddbd {
namespace {

uint64_t UnitsOf(uint64_t size_bytes, uint64_t unit_bytes) {
  return std::max<uint64_t>(1, (size_bytes + unit_bytes - 1) / unit_bytes);
}

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

double ReadUnits(uint64_t size_bytes, bool consistent_read) {
  const auto units = static_cast<double>(UnitsOf(size_bytes, 4096));
  return consistent_read ? units : units / 2;
}

double WriteUnits(uint64_t size_bytes) { return static_cast<double>(UnitsOf(size_bytes, 1024)); }

double TableWriteUnits(const Committed& change) {
  return WriteUnits(std::max(change.old_size, change.new_size));
}

double IndexWriteUnits(const IndexEntryChange& change) {
  if (!change.changed()) return 0;
  double units = 0;
  if (change.had_entry && (!change.has_entry || change.key_changed)) {
    units += WriteUnits(change.old_size);
  }
  if (change.has_entry) units += WriteUnits(change.new_size);
  return units;
}

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
