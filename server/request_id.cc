#include "server/request_id.h"

#include <random>

namespace ddbd {

std::string NewRequestId() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::string id(52, 'A');
  uint64_t bits = 0;
  for (size_t i = 0; i < id.size(); ++i) {
    if (i % 10 == 0) bits = generator();  // 10 draws of 6 bits from each 64-bit word
    id[i] = kAlphabet[(bits & 63) % 36];
    bits >>= 6;
  }
  return id;
}

}  // namespace ddbd
