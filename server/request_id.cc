#include "server/request_id.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>

namespace ddbd {
namespace {

// Each 6-bit draw picks its character from this table: [A-Z0-9] repeated to 64 entries, as
// (bits % 36) picked them before (the first 28 characters a little more often: an id needs to
// be unlikely to repeat, not uniform).
constexpr std::array<char, 64> kCharacters = [] {
  constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::array<char, 64> table{};
  for (size_t i = 0; i < table.size(); ++i) table[i] = kAlphabet[i % 36];
  return table;
}();

// SplitMix64 (Steele, Lea and Flood): 64 random-looking bits per step for a few instructions,
// where std::mt19937_64 cost ~1,300 instructions per id. Seeded per thread from the system's
// randomness, so ids differ between threads and runs.
uint64_t NextBits() {
  thread_local uint64_t state = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  uint64_t z = (state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

}  // namespace

std::string NewRequestId() {
  std::string id;
  AssignRequestId(id);
  return id;
}

void AssignRequestId(std::string& id) {
  constexpr size_t kLength = 52;
  constexpr size_t kPerWord = 10;  // 6-bit draws from each 64-bit word
  id.resize(kLength);
  char* const out = id.data();
  for (size_t start = 0; start < kLength; start += kPerWord) {
    uint64_t bits = NextBits();
    const size_t end = std::min(start + kPerWord, kLength);
    for (size_t i = start; i < end; ++i) {
      out[i] = kCharacters[bits & 63];
      bits >>= 6;
    }
  }
}

}  // namespace ddbd
