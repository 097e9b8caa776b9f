#include "engine/capacity/capacity.h"

#include <algorithm>

namespace ddbd {
namespace {

uint64_t UnitsOf(uint64_t size_bytes, uint64_t unit_bytes) {
  return std::max<uint64_t>(1, (size_bytes + unit_bytes - 1) / unit_bytes);
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

}  // namespace ddbd
