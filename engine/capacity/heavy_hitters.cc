#include "engine/capacity/heavy_hitters.h"

namespace ddbd {

void HeavyHitters::Add(std::string_view key, double weight) {
  if (capacity_ == 0) return;
  total_ += weight;
  const absl::string_view id(key.data(), key.size());  // absl's own type on Debian 12
  if (auto it = slots_.find(id); it != slots_.end()) {
    entries_[it->second].weight += weight;
    return;
  }
  if (entries_.size() < capacity_) {
    slots_.emplace(id, static_cast<uint32_t>(entries_.size()));
    entries_.push_back({std::string(key), weight, 0});
    return;
  }
  // The lightest key gives its slot up. A linear pass: the capacity is small (tens), and a key
  // already kept, the common case for a hot key, never gets here.
  size_t lightest = 0;
  for (size_t i = 1; i < entries_.size(); ++i) {
    if (entries_[i].weight < entries_[lightest].weight) lightest = i;
  }
  Entry& slot = entries_[lightest];
  slots_.erase(slot.key);
  slot.key.assign(key.data(), key.size());
  slot.error = slot.weight;
  slot.weight += weight;
  slots_.emplace(slot.key, static_cast<uint32_t>(lightest));
}

void HeavyHitters::Clear() {
  total_ = 0;
  entries_.clear();
  slots_.clear();
}

}  // namespace ddbd
