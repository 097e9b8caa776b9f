// When a connection's I/O must have ended (--request-timeout-ms: a whole request read, an answer
// taken), checked by one sweep of all connections every few hundred milliseconds instead of an
// Asio timer per read and per write. Beast's basic_stream armed a timer for each read and write
// and cancelled it when the I/O ended (a queue insert, a removal and the cancelled handler run
// each time): 0.6-1.1 us of a 8-11 us request. A deadline is one store; a connection is closed
// at most one sweep period after its deadline.
//
// No Asio here: the session registry (no Beast or Asio) reads deadlines too.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>

namespace ddbd {

// The monotonic clock at the kernel's tick (4 ms here): a deadline needs no finer, and it is
// read from the vDSO without the TSC (4.8 ns against 19 ns for steady_clock on this VM).
inline int64_t CoarseNowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// How often the deadlines are swept for a request timeout of `timeout_ms`: a quarter of it
// (a timed-out connection closes within 1.25 times the timeout), between 10 ms and 1 s.
inline int64_t SweepPeriodMs(int64_t timeout_ms) {
  return std::clamp<int64_t>(timeout_ms / 4, 10, 1000);
}

class Deadline {
 public:
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  // The I/O started now must end within `ms`.
  void Set(int64_t now_ns, int64_t ms) {
    at_ns_.store(now_ns + ms * 1'000'000, std::memory_order_relaxed);
  }
  void Clear() { at_ns_.store(kNone, std::memory_order_relaxed); }
  bool Passed(int64_t now_ns) const { return at_ns_.load(std::memory_order_relaxed) <= now_ns; }

 private:
  std::atomic<int64_t> at_ns_ = kNone;
};

}  // namespace ddbd
