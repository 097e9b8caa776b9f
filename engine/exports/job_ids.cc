#include "engine/exports/job_ids.h"

#include <algorithm>
#include <atomic>
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
  // Each id's time part after the last one's: ListExports and ListImports list newest first by
  // id, and two jobs started within one millisecond (two calls in a row do) would otherwise be
  // ordered by their random part.
  static std::atomic<int64_t> last_ms = 0;
  int64_t previous = last_ms.load(std::memory_order_relaxed);
  int64_t id_ms;
  do {
    id_ms = std::max(now_ms, previous + 1);
  } while (!last_ms.compare_exchange_weak(previous, id_ms, std::memory_order_relaxed));
  std::string ms = std::to_string(id_ms);
  if (ms.size() < 14) ms.insert(0, 14 - ms.size(), '0');
  return ms + "-" + RandomHex(8);
}

std::string NewClientToken() {
  return RandomHex(8) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" + RandomHex(4) + "-" +
         RandomHex(12);
}

}  // namespace ddbd
