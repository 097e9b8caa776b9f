#include "engine/storage/packed_ref.h"

#include <catch2/catch.hpp>
#include <cstdint>

namespace ddbd {
namespace {

TEST_CASE("A packed entry keeps a pointer's 48 bits and a hash's 48, each whole") {
  // Each bit pattern at its edges: all ones, alternating, the top bit alone.
  const uintptr_t pointers[] = {
      0, 4, 0x7FFFFFFFFFFC, 0xFFFFFFFFFFFF, 0xAAAAAAAAAAAA, 0x800000000000};
  const uint64_t hashes[] = {0, 1, 0xFFFFFFFFFFFFFFFF, 0x5555555555555555, 0x0000800000000000};
  for (uintptr_t pointer : pointers) {
    for (uint64_t raw : hashes) {
      const uint64_t hash = PackedRef::Hash(raw);
      REQUIRE(hash <= PackedRef::kMask);
      const PackedRef ref(pointer, hash);
      CHECK(ref.bits() == pointer);
      CHECK(ref.hash() == hash);
      // Pointed elsewhere in place: the hash stays.
      for (uintptr_t other : pointers) {
        ref.set_bits(other);
        CHECK(ref.bits() == other);
        CHECK(ref.hash() == hash);
      }
    }
  }
}

}  // namespace
}  // namespace ddbd
