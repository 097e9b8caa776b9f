#include "server/request_id.h"

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
uint64_t& State() {
  thread_local uint64_t state = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  return state;
}

uint64_t NextBits(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// `count` characters from the 6-bit draws of `bits`, low bits first.
template <size_t kCount>
char* Draw(char* out, uint64_t bits) {
#pragma GCC unroll 10
  for (size_t i = 0; i < kCount; ++i) {
    out[i] = kCharacters[bits & 63];
    bits >>= 6;
  }
  return out + kCount;
}

}  // namespace

std::string NewRequestId() {
  std::string id;
  AssignRequestId(id);
  return id;
}

void AssignRequestId(std::string& id) {
  // Ten 6-bit draws from each 64-bit word, unrolled (a loop bounded by the id's end cost ~480
  // instructions an id, every answer), the thread's state read once.
  constexpr size_t kLength = 52;
  constexpr size_t kPerWord = 10;
  id.resize(kLength);
  char* out = id.data();
  uint64_t& state = State();
  for (size_t word = 0; word < kLength / kPerWord; ++word)
    out = Draw<kPerWord>(out, NextBits(state));
  Draw<kLength % kPerWord>(out, NextBits(state));
}

}  // namespace ddbd
