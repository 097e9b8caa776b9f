#include "engine/exports/job_ids.h"

#include <random>

namespace ddbd {
namespace {

std::string RandomHex(size_t digits) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < digits; ++i) out += kHex[random() % 16];
  return out;
}

}  // namespace

std::string NewJobId(int64_t now_ms) {
  std::string ms = std::to_string(now_ms);
  if (ms.size() < 14) ms.insert(0, 14 - ms.size(), '0');
  return ms + "-" + RandomHex(8);
}

std::string NewClientToken() {
  return RandomHex(8) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" +
         RandomHex(12);
}

}  // namespace ddbd
