#include "server/session_registry.h"

#include <catch2/catch.hpp>
#include <memory>

namespace ddbd {
namespace {

struct FakeSession : SessionBase {
  void StopWhenIdle() override {}
  size_t PendingBytes() const override { return 0; }
  int64_t PendingSinceNs() const override { return 0; }
  size_t TakePendingBytes() override { return 0; }
  void Drop(size_t) override {}
  void TimeOut() override { ++timed_out; }
  int timed_out = 0;
};

TEST_CASE("The sweep finds the sessions whose deadline has passed, and only those") {
  SessionRegistry registry;
  auto idle = std::make_shared<FakeSession>();     // no deadline: answering, or between writes
  auto reading = std::make_shared<FakeSession>();  // its request due at 1,000 ms
  auto late = std::make_shared<FakeSession>();     // its request was due at 500 ms
  for (const auto& session : {idle, reading, late}) registry.Add(session.get(), session);
  reading->deadline.Set(0, 1000);
  late->deadline.Set(0, 500);

  CHECK(registry.Expired(499'999'999).empty());
  auto expired = registry.Expired(500'000'000);
  REQUIRE(expired.size() == 1);
  CHECK(expired[0].get() == late.get());
  CHECK(registry.Expired(1'000'000'000).size() == 2);

  // A read that ended clears its deadline; a session gone is not handed out.
  late->deadline.Clear();
  CHECK(registry.Expired(1'000'000'000).size() == 1);
  registry.Remove(reading.get());
  CHECK(registry.Expired(int64_t{1} << 62).empty());
}

TEST_CASE("Sweeps come a quarter of the timeout apart, between 10 ms and a second") {
  CHECK(SweepPeriodMs(60'000) == 1000);
  CHECK(SweepPeriodMs(300) == 75);
  CHECK(SweepPeriodMs(1) == 10);
}

}  // namespace
}  // namespace ddbd
