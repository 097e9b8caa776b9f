#include "engine/capacity/usage.h"

#include <cmath>

namespace ddbd {
namespace {

uint64_t HalvesOf(double units) { return static_cast<uint64_t>(std::llround(units * 2)); }

}  // namespace

void CapacityUsage::Charge(const ConsumedCapacity& consumed, bool write) {
  (write ? write_halves_ : read_halves_)
      .fetch_add(HalvesOf(consumed.table_units), std::memory_order_relaxed);
  if (consumed.global_indexes.empty() && consumed.local_indexes.empty()) return;
  std::lock_guard lock(mutex_);
  for (const auto* parts : {&consumed.global_indexes, &consumed.local_indexes}) {
    for (const auto& [name, units] : *parts) {
      Halves& halves = indexes_[name];
      halves.global = parts == &consumed.global_indexes;
      (write ? halves.write : halves.read) += HalvesOf(units);
    }
  }
}

std::vector<CapacityUsage::Part> CapacityUsage::Read() const {
  std::vector<Part> parts;
  parts.push_back({"", false, static_cast<double>(read_halves_.load(std::memory_order_relaxed)) / 2,
                   static_cast<double>(write_halves_.load(std::memory_order_relaxed)) / 2});
  std::lock_guard lock(mutex_);
  for (const auto& [name, halves] : indexes_) {
    parts.push_back({name, halves.global, static_cast<double>(halves.read) / 2,
                     static_cast<double>(halves.write) / 2});
  }
  return parts;
}

}  // namespace ddbd
