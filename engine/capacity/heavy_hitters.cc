#include "engine/capacity/heavy_hitters.h"

#include <algorithm>
#include <utility>

#include "absl/hash/hash.h"

namespace ddbd {

HeavyHitters::HeavyHitters(size_t capacity) : capacity_(std::min<size_t>(capacity, 0x7FFF)) {
  size_t slots = 1;
  while (slots < 2 * capacity_) slots *= 2;
  slots_.assign(slots, kFree);
}

uint16_t HeavyHitters::Find(uint64_t hash, std::string_view key) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint16_t id = slots_[i];
    if (id == kFree) return kFree;
    if (entries_[id].hash == hash && entries_[id].key == key) return id;
  }
}

void HeavyHitters::Link(uint16_t id) {
  const size_t mask = slots_.size() - 1;
  size_t i = entries_[id].hash & mask;
  while (slots_[i] != kFree) i = (i + 1) & mask;
  slots_[i] = id;
}

void HeavyHitters::Unlink(uint16_t id) {
  const size_t mask = slots_.size() - 1;
  size_t hole = entries_[id].hash & mask;
  while (slots_[hole] != id) hole = (hole + 1) & mask;
  // Backward-shift deletion: an entry later in the run moves into the hole unless its own home
  // slot lies cyclically after the hole (it would then be found before reaching the hole).
  for (size_t next = (hole + 1) & mask; slots_[next] != kFree; next = (next + 1) & mask) {
    const size_t home = entries_[slots_[next]].hash & mask;
    const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
    if (!stays) {
      slots_[hole] = slots_[next];
      hole = next;
    }
  }
  slots_[hole] = kFree;
}

void HeavyHitters::Swap(size_t a, size_t b) {
  std::swap(heap_[a], heap_[b]);
  position_[heap_[a]] = static_cast<uint16_t>(a);
  position_[heap_[b]] = static_cast<uint16_t>(b);
}

void HeavyHitters::SiftUp(size_t at) {
  while (at > 0) {
    const size_t parent = (at - 1) / 2;
    if (WeightAt(parent) <= WeightAt(at)) return;
    Swap(at, parent);
    at = parent;
  }
}

void HeavyHitters::SiftDown(size_t at) {
  const size_t size = heap_.size();
  for (;;) {
    size_t child = 2 * at + 1;
    if (child >= size) return;
    if (child + 1 < size && WeightAt(child + 1) < WeightAt(child)) ++child;
    if (WeightAt(at) <= WeightAt(child)) return;
    Swap(at, child);
    at = child;
  }
}

void HeavyHitters::Add(std::string_view key, double weight) {
  if (capacity_ == 0) return;
  total_ += weight;
  const uint64_t hash = absl::HashOf(absl::string_view(key.data(), key.size()));
  if (const uint16_t id = Find(hash, key); id != kFree) {
    entries_[id].weight += weight;  // heavier: it may move down, away from the root
    SiftDown(position_[id]);
    return;
  }
  if (entries_.size() < capacity_) {
    const auto id = static_cast<uint16_t>(entries_.size());
    entries_.push_back({std::string(key), weight, 0, hash});
    position_.push_back(static_cast<uint16_t>(heap_.size()));
    heap_.push_back(id);
    Link(id);
    SiftUp(heap_.size() - 1);
    return;
  }
  // The lightest key gives its slot up; the newcomer inherits its weight as possible overcount.
  const uint16_t id = heap_[0];
  Entry& entry = entries_[id];
  Unlink(id);
  entry.key.assign(key.data(), key.size());
  entry.hash = hash;
  entry.error = entry.weight;
  entry.weight += weight;
  Link(id);
  SiftDown(0);
}

void HeavyHitters::Clear() {
  total_ = 0;
  entries_.clear();
  heap_.clear();
  position_.clear();
  std::fill(slots_.begin(), slots_.end(), kFree);
}

}  // namespace ddbd
