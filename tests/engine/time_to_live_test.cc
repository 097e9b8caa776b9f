// Time to Live with a manual clock: when an item is due, UpdateTimeToLive's rules, and the
// sweep (deletes through the commit path with origin kTimeToLive, indexes kept, in slices).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/storage/expiry_index.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

constexpr int64_t kNowMs = 1'700'000'000'000;  // ManualClock's start
constexpr int64_t kTimeToLiveHourMs = 3'600'000;

struct Origins : CommitObserver {
  std::vector<ChangeOrigin> removed;
  void OnCommit(const ChangeRecord& change) override {
    if (change.kind == ChangeKind::kRemove) removed.push_back(change.origin);
  }
};

struct TimeToLiveFixture {
  ManualClock clock{kNowMs};
  Engine engine{{}, clock};
  Origins origins;
  TimeToLiveFixture() {
    engine.Subscribe(&origins);
    CreateTableArgs args;
    args.table_name = "Sessions";
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                  {"sk", ScalarAttributeType::kS},
                                  {"user", ScalarAttributeType::kS}};
    args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    args.billing_mode = BillingMode::kPayPerRequest;
    args.global_secondary_indexes = {
        {"by-user", {{"user", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
    REQUIRE(engine.CreateTable(args).ok());
  }
  Status Enable(const std::string& attribute, bool enabled = true) {
    auto result = engine.UpdateTimeToLive({"Sessions", {attribute, enabled}});
    if (!result.ok()) return result.error();
    return Ok{};
  }
  void PutSession(const std::string& sk, std::optional<AttributeValue> expires) {
    Item item = {{"pk", S("p")}, {"sk", S(sk)}, {"user", S("u")}};
    if (expires) item.emplace_back("ttl", *expires);
    REQUIRE(testing::Put(engine, "Sessions", item).ok());
  }
  bool Has(const std::string& sk) {
    auto got = testing::Get(engine, "Sessions", {{"pk", S("p")}, {"sk", S(sk)}});
    REQUIRE(got.ok());
    return got.value().item.has_value();
  }
  int64_t IndexCount() {
    auto table = engine.DescribeTable("Sessions");
    REQUIRE(table.ok());
    return table.value().indexes[0].item_count;
  }
};

std::string Seconds(int64_t ms) { return std::to_string(ms / 1000); }

TEST_CASE("TTL values are epoch seconds, fractions and exponents included") {
  CHECK(ExpiryMsOf("1700000000") == 1'700'000'000'000);
  CHECK(ExpiryMsOf("12345678.1234") == 12'345'678'124);  // rounded up to the millisecond
  CHECK(ExpiryMsOf("1234567E1") == 12'345'670'000);
  CHECK(ExpiryMsOf("-5") == -5000);
  CHECK(ExpiryMsOf("1E+125") > int64_t{1} << 60);  // clamped, never due
  CHECK_FALSE(ExpiryMsOf("x").has_value());
  CHECK(IsDue(kNowMs, kNowMs));
  CHECK(IsDue(kNowMs - 1000, kNowMs));
  CHECK_FALSE(IsDue(kNowMs + 1, kNowMs));
  CHECK(IsDue(kNowMs - kTimeToLiveHorizonMs, kNowMs));
  CHECK_FALSE(IsDue(kNowMs - kTimeToLiveHorizonMs - 1, kNowMs));  // over five years back
}

TEST_CASE("UpdateTimeToLive refuses repeats, a wrong attribute and changes within the cooldown") {
  TimeToLiveFixture f;
  auto described = f.engine.DescribeTimeToLive("Sessions");
  REQUIRE(described.ok());
  CHECK_FALSE(described.value().enabled);
  CHECK(f.Enable("ttl", false).error().message() == "TimeToLive is already disabled");
  REQUIRE(f.Enable("ttl").ok());
  described = f.engine.DescribeTimeToLive("Sessions");
  CHECK(described.value().enabled);
  CHECK(described.value().attribute_name == "ttl");
  CHECK(f.Enable("ttl").error().message() == "TimeToLive is already enabled");
  const std::string different =
      "TimeToLive is active on a different AttributeName: current AttributeName is ttl";
  CHECK(f.Enable("other").error().message() == different);
  CHECK(f.Enable("other", false).error().message() == different);
  CHECK(f.Enable("ttl", false).error().message() ==
        "Time to live has been modified multiple times within a fixed interval");
  f.clock.AdvanceMs(kTimeToLiveHourMs - 1);
  CHECK_FALSE(f.Enable("ttl", false).ok());
  f.clock.AdvanceMs(1);
  REQUIRE(f.Enable("ttl", false).ok());
  CHECK_FALSE(f.engine.DescribeTimeToLive("Sessions").value().enabled);
  CHECK(f.engine.UpdateTimeToLive({"Missing", {"ttl", true}}).error().code() ==
        ErrorCode::kResourceNotFound);
  CHECK(f.engine.DescribeTimeToLive("Missing").error().code() == ErrorCode::kResourceNotFound);
}

TEST_CASE("A zero cooldown lets a suite toggle TTL freely") {
  ManualClock clock{kNowMs};
  EngineOptions options;
  options.ttl_cooldown_ms = 0;
  Engine engine{options, clock};
  CreateTableArgs args;
  args.table_name = "T";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  REQUIRE(engine.CreateTable(args).ok());
  for (int i = 0; i < 3; ++i) {
    REQUIRE(engine.UpdateTimeToLive({"T", {"a", true}}).ok());
    REQUIRE(engine.UpdateTimeToLive({"T", {"a", false}}).ok());
  }
}

TEST_CASE("The sweep deletes due items only, through the commit path, indexes included") {
  TimeToLiveFixture f;
  f.PutSession("before-enable", N(Seconds(kNowMs - 60'000)));  // stored before TTL: expires too
  REQUIRE(f.Enable("ttl").ok());
  f.PutSession("due", N(Seconds(kNowMs - 1000)));
  f.PutSession("now", N(Seconds(kNowMs)));
  f.PutSession("fraction", N("1699999999.5"));
  f.PutSession("later", N(Seconds(kNowMs + kTimeToLiveHourMs)));
  f.PutSession("ancient", N("162777600"));  // more than five years back: ignored
  f.PutSession("string", S(Seconds(kNowMs - 1000)));
  f.PutSession("none", std::nullopt);
  f.PutSession("rescued", N(Seconds(kNowMs - 1000)));
  f.PutSession("rescued", N(Seconds(kNowMs + 2 * kTimeToLiveHourMs)));  // moved before the sweep
  CHECK(f.IndexCount() == 9);
  CHECK(f.Has("due"));  // expired but not yet swept: still read
  CHECK(f.engine.SweepExpiredItems(100) == 4);
  for (const char* gone : {"before-enable", "due", "now", "fraction"}) CHECK_FALSE(f.Has(gone));
  for (const char* kept : {"later", "ancient", "string", "none", "rescued"}) CHECK(f.Has(kept));
  CHECK(f.IndexCount() == 5);
  CHECK(f.origins.removed == std::vector<ChangeOrigin>(4, ChangeOrigin::kTimeToLive));
  CHECK(f.engine.SweepExpiredItems(100) == 0);
  f.clock.AdvanceMs(kTimeToLiveHourMs);
  CHECK(f.engine.SweepExpiredItems(100) == 1);
  CHECK_FALSE(f.Has("later"));
  auto table = f.engine.DescribeTable("Sessions");
  CHECK(table.value().item_count == 4);
}

TEST_CASE("The sweep works in slices, and stops when TTL is disabled") {
  TimeToLiveFixture f;
  REQUIRE(f.Enable("ttl").ok());
  for (int i = 0; i < 100; ++i) f.PutSession("s" + std::to_string(i), N(Seconds(kNowMs)));
  CHECK(f.engine.SweepExpiredItems(40) == 40);
  CHECK(f.engine.SweepExpiredItems(40) == 40);
  f.clock.AdvanceMs(kTimeToLiveHourMs);
  REQUIRE(f.Enable("ttl", false).ok());
  CHECK(f.engine.SweepExpiredItems(40) == 0);  // disabled: the rest stay
  auto table = f.engine.DescribeTable("Sessions");
  CHECK(table.value().item_count == 20);
}

TEST_CASE("A deleted item leaves the expiry index, a re-put comes back into it") {
  TimeToLiveFixture f;
  REQUIRE(f.Enable("ttl").ok());
  f.PutSession("a", N(Seconds(kNowMs + 1000)));
  REQUIRE(testing::Delete(f.engine, "Sessions", {{"pk", S("p")}, {"sk", S("a")}}).ok());
  f.clock.AdvanceMs(2000);
  CHECK(f.engine.SweepExpiredItems(10) == 0);
  f.PutSession("a", N(Seconds(kNowMs + 1000)));
  CHECK(f.engine.SweepExpiredItems(10) == 1);
  CHECK(f.origins.removed ==
        std::vector<ChangeOrigin>{ChangeOrigin::kUser, ChangeOrigin::kTimeToLive});
}

}  // namespace
}  // namespace ddbd
