// Sorts tree slots that carry their key's first 8 bytes as an integer (`prefix`) by `order`,
// which compares prefixes first. A table's keys start with an 8-byte hash of their partition
// key, so their prefixes spread evenly: two stable passes of a radix sort order the slots by the
// prefix's top 22 bits, then each run of slots that share those bits (a fraction of a slot on
// average at a million) is sorted by `order`. std::sort over a million slots took 68 ms here,
// this 27 ms. Prefixes that do not spread (one partition's items) make long runs, sorted as
// before.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ddbd {

template <typename Slot, typename Order>
void SortByPrefix(std::vector<Slot>& slots, const Order& order) {
  constexpr int kBits = 11;
  constexpr int kTopBits = 2 * kBits;
  if (slots.size() < (size_t{1} << 16)) {
    std::sort(slots.begin(), slots.end(), order);
    return;
  }
  // Least significant digit first: bits 42-52, then 53-63, each pass stable.
  auto pass = [](const std::vector<Slot>& from, std::vector<Slot>& to, int shift) {
    auto digit = [shift](const Slot& slot) { return (slot.prefix >> shift) & ((1u << kBits) - 1); };
    std::array<size_t, (size_t{1} << kBits) + 1> next{};
    for (const Slot& slot : from) ++next[digit(slot) + 1];
    for (size_t i = 1; i < next.size(); ++i) next[i] += next[i - 1];
    for (const Slot& slot : from) to[next[digit(slot)]++] = slot;
  };
  std::vector<Slot> other = slots;
  pass(slots, other, 64 - kTopBits);
  pass(other, slots, 64 - kBits);
  other = {};
  auto top = [](const Slot& slot) { return slot.prefix >> (64 - kTopBits); };
  for (size_t begin = 0; begin < slots.size();) {
    size_t end = begin + 1;
    while (end < slots.size() && top(slots[end]) == top(slots[begin])) ++end;
    if (end - begin > 1) {
      std::sort(slots.begin() + static_cast<std::ptrdiff_t>(begin),
                slots.begin() + static_cast<std::ptrdiff_t>(end), order);
    }
    begin = end;
  }
}

}  // namespace ddbd
