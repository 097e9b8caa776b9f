// The heaviest keys of a stream of weighted events in bounded memory: the Space-Saving algorithm
// (Metwally, Agrawal and El Abbadi, "Efficient Computation of Frequent and Top-k Elements in Data
// Streams", 2005), with weights. It keeps at most `capacity` keys; a new key takes the lightest
// one's slot and inherits its weight as its possible overcount (`error`). Every key whose true
// weight exceeds total / capacity is kept, and a kept key's weight is overstated by at most its
// `error`. Contributor Insights keeps one per rule and minute (engine/capacity/key_traffic.h).
//
// Thread safety: none; the caller locks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace ddbd {

class HeavyHitters {
 public:
  struct Entry {
    std::string key;
    double weight = 0;  // at least the key's true weight, at most `error` more
    double error = 0;
  };

  explicit HeavyHitters(size_t capacity) : capacity_(capacity) {}

  void Add(std::string_view key, double weight);
  // Every kept key, in no particular order.
  const std::vector<Entry>& entries() const { return entries_; }
  double total() const { return total_; }
  void Clear();

 private:
  size_t capacity_;
  double total_ = 0;
  std::vector<Entry> entries_;
  absl::flat_hash_map<std::string, uint32_t> slots_;  // key -> index in entries_
};

}  // namespace ddbd
