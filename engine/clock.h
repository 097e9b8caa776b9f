// Time is injected so table status transitions (and later TTL and capacity refill) can be tested
// instantly and deterministically.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace ddbd {

inline constexpr int64_t kDayMs = int64_t{24} * 3'600'000;

// The machine's monotonic time in milliseconds, for waits and backoffs a test's move of the
// engine's clock must not shorten.
int64_t SteadyMs();

// Milliseconds since the Unix epoch. Implementations must be safe to call from any thread.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t NowMs() const = 0;
};

class SystemClock final : public Clock {
 public:
  int64_t NowMs() const override;
};

// The server's clock: the system's, plus an offset that only grows (the admin API's
// POST /_ddbd/clock), so a test sees TTL expiry, stream retention, ClientRequestToken windows and
// the point-in-time window pass without waiting. One for the whole server: every namespace's
// engine reads it. The offset lives in memory only; a restart runs on the system's time again.
class AdjustableClock final : public Clock {
 public:
  int64_t NowMs() const override {
    return system_.NowMs() + offset_ms_.load(std::memory_order_relaxed);
  }
  int64_t offset_ms() const { return offset_ms_.load(std::memory_order_relaxed); }
  // Moves the clock `delta_ms` (>= 0) forward; returns the offset now.
  int64_t AdvanceMs(int64_t delta_ms) { return offset_ms_ += delta_ms; }

 private:
  SystemClock system_;
  std::atomic<int64_t> offset_ms_{0};
};

// "2026-10-08T23:16:33Z": a moment to the second, in UTC, as DynamoDB quotes moments in messages.
std::string IsoSeconds(int64_t epoch_ms);

// A clock that only moves when told to; for tests.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t now_ms = 1'700'000'000'000) : now_ms_(now_ms) {}
  int64_t NowMs() const override { return now_ms_.load(); }
  void AdvanceMs(int64_t delta_ms) { now_ms_ += delta_ms; }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace ddbd
