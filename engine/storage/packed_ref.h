// A hash set's entry of a pointer and the hash of what it points to, in 12 bytes where a pointer
// and a size_t take 16: the hashes of keys hold an entry in every slot (~1.1 to 2.3 slots an
// item, as Abseil's sets grow by doubling), so 4 bytes a slot are 8 MB at a million items and
// 67 MB at ten million. A user-space address on x86-64 and ARM64 (ddbd's platforms) has at most
// 48 bits, and 48 bits of hash outlast any table's slots.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>

namespace ddbd {

class PackedRef {
 public:
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;
  // A hash as the entry keeps it: what a set's hasher returns for the entry's key too.
  static constexpr uint64_t Hash(uint64_t hash) { return hash & kMask; }

  PackedRef(uintptr_t bits, uint64_t hash) {
    assert((bits & ~kMask) == 0);
    const uint64_t low = (uint64_t{bits} & kMask) | (hash << 48);
    std::memcpy(words_, &low, 8);
    words_[2] = static_cast<uint32_t>((hash & kMask) >> 16);
  }
  uintptr_t bits() const {
    uint64_t low;
    std::memcpy(&low, words_, 8);
    return static_cast<uintptr_t>(low & kMask);
  }
  uint64_t hash() const {
    uint64_t high;
    std::memcpy(&high, words_ + 1, 8);
    return high >> 16;
  }
  // Points the entry elsewhere (the same key, so the same hash). Const: a set's entries are,
  // and its place in the set does not change.
  void set_bits(uintptr_t bits) const {
    assert((bits & ~kMask) == 0);
    uint64_t low;
    std::memcpy(&low, words_, 8);
    low = (low & ~kMask) | (uint64_t{bits} & kMask);
    std::memcpy(words_, &low, 8);
  }

 private:
  // Little-endian: the pointer's 48 bits, then the hash's 48.
  mutable uint32_t words_[3];
};
static_assert(sizeof(PackedRef) == 12 && alignof(PackedRef) == 4);

}  // namespace ddbd
