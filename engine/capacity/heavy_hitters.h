// The heaviest keys of a stream of weighted events in bounded memory: the Space-Saving algorithm
// (Metwally, Agrawal and El Abbadi, "Efficient Computation of Frequent and Top-k Elements in Data
// Streams", 2005), with weights. It keeps at most `capacity` keys; a new key takes the lightest
// one's slot and inherits its weight as its possible overcount (`error`). Every key whose true
// weight exceeds total / capacity is kept, and a kept key's weight is overstated by at most its
// `error`. Contributor Insights keeps one per rule and minute (engine/capacity/key_traffic.h).
//
// Every item call of a table with Contributor Insights on adds to two of these, so an Add costs a
// hash and a few steps whatever the capacity: the keys are found through a small open-addressed
// table of their hashes, and the lightest is the root of a binary min-heap.
//
// Thread safety: none; the caller locks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ddbd {

class HeavyHitters {
 public:
  struct Entry {
    std::string key;
    double weight = 0;  // at least the key's true weight, at most `error` more
    double error = 0;
    uint64_t hash = 0;
  };

  // `capacity` at most 32767.
  explicit HeavyHitters(size_t capacity);

  void Add(std::string_view key, double weight);
  // Every kept key, in no particular order.
  const std::vector<Entry>& entries() const { return entries_; }
  double total() const { return total_; }
  void Clear();

 private:
  static constexpr uint16_t kFree = 0xFFFF;
  // The entry holding `key` (of `hash`), or kFree.
  uint16_t Find(uint64_t hash, std::string_view key) const;
  void Link(uint16_t id);    // its hash's slot
  void Unlink(uint16_t id);  // frees it, moving later entries of the probe run back
  double WeightAt(size_t at) const { return entries_[heap_[at]].weight; }
  void Swap(size_t a, size_t b);
  void SiftUp(size_t at);
  void SiftDown(size_t at);

  size_t capacity_;
  double total_ = 0;
  std::vector<Entry> entries_;      // by id, as added
  std::vector<uint16_t> heap_;      // ids, the lightest at the root
  std::vector<uint16_t> position_;  // id -> its place in heap_
  std::vector<uint16_t> slots_;     // ids by hash, linear probing; twice the capacity or more
};

}  // namespace ddbd
