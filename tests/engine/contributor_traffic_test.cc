// Contributor Insights' counting: the heavy-hitters sketch's guarantees, a resource's rules over
// the sliding window (engine/capacity/key_traffic.h), and what the item calls count through the
// engine (engine/catalog/insight_counts.h): weights, one event per Query, PartiQL's reads and
// writes left out, throttles, global indexes, and nothing once disabled.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "engine/capacity/heavy_hitters.h"
#include "engine/capacity/key_traffic.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

TEST_CASE("The sketch keeps every key heavier than total / capacity, overstated by its error") {
  HeavyHitters sketch(8);
  std::map<std::string, double> truth;
  // Three hot keys among 2,000 cold ones, interleaved.
  for (int i = 0; i < 2000; ++i) {
    const std::string cold = "cold" + std::to_string(i);
    sketch.Add(cold, 1);
    truth[cold] += 1;
    for (const char* hot : {"a", "b", "c"}) {
      const double weight = hot[0] == 'a' ? 3 : 1;
      if (i % 4 == 0) {
        sketch.Add(hot, weight);
        truth[hot] += weight;
      }
    }
  }
  CHECK(sketch.entries().size() == 8);
  CHECK(sketch.total() == Approx(2000 + 500 * 5));
  std::map<std::string, HeavyHitters::Entry> kept;
  for (const HeavyHitters::Entry& entry : sketch.entries()) kept[entry.key] = entry;
  for (const char* hot : {"a", "b", "c"}) {
    INFO(hot);
    REQUIRE(kept.count(hot) == 1);
    CHECK(kept[hot].weight >= truth[hot]);
    CHECK(kept[hot].weight - kept[hot].error <= truth[hot]);
  }
  for (const auto& [key, entry] : kept) {
    CHECK(entry.weight - entry.error <= truth[key]);
    CHECK(entry.weight >= truth[key]);
  }
  sketch.Clear();
  CHECK(sketch.entries().empty());
}

TEST_CASE("The sketch's guarantees hold over a long skewed stream of many keys") {
  HeavyHitters sketch(64);
  std::map<std::string, double> truth;
  uint64_t state = 41;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  double total = 0;
  for (int i = 0; i < 50000; ++i) {
    // A few keys take much of the weight; most are seen once or twice.
    const uint64_t draw = next() % 1000;
    const std::string key =
        draw < 300 ? "hot" + std::to_string(draw % 5) : "k" + std::to_string(next() % 20000);
    const double weight = static_cast<double>(next() % 4 + 1) * 0.5;
    sketch.Add(key, weight);
    truth[key] += weight;
    total += weight;
  }
  REQUIRE(sketch.entries().size() == 64);
  double kept_total = 0;
  std::map<std::string, const HeavyHitters::Entry*> kept;
  for (const HeavyHitters::Entry& entry : sketch.entries()) {
    CHECK(kept.emplace(entry.key, &entry).second);  // each key once
    CHECK(entry.weight >= truth[entry.key]);
    CHECK(entry.weight - entry.error <= truth[entry.key]);
    kept_total += entry.weight;
  }
  CHECK(kept_total == Approx(total));  // Space-Saving: the counters sum to the stream's weight
  for (const auto& [key, weight] : truth) {
    if (weight > total / 64) CHECK(kept.count(key) == 1);
  }
  for (int i = 0; i < 5; ++i) CHECK(kept.count("hot" + std::to_string(i)) == 1);
}

KeyParts TableKey() {
  KeyParts key;
  key.partition.push_back({"pk", AttributeType::kS});
  key.sort.push_back({"sk", AttributeType::kN});
  return key;
}

TEST_CASE("A resource's rules count per key over a window of minutes that slides") {
  KeyTraffic traffic(TableKey(), ContributorInsightsMode::kAccessedAndThrottledKeys);
  const Item alice1{{"pk", S("alice")}, {"sk", N("1")}};
  const Item alice2{{"pk", S("alice")}, {"sk", N("2")}};
  const Item bob1{{"pk", S("bob")}, {"sk", N("1")}};
  auto in = [](const Item& item) {
    return [&item](std::string_view name) { return FindAttribute(item, name); };
  };
  const int64_t start = 100 * KeyTraffic::kMinuteMs;
  traffic.Accessed(in(alice1), true, 3, start);
  traffic.Accessed(in(alice2), true, 3, start + 1);
  traffic.Accessed(in(bob1), true, 0.5, start + KeyTraffic::kMinuteMs);
  traffic.Accessed(in(bob1), false, 10, start + KeyTraffic::kMinuteMs);  // a Query: partition only
  traffic.Throttled(in(bob1), true, start + KeyTraffic::kMinuteMs);
  auto report = traffic.Report(start + KeyTraffic::kMinuteMs, 10);
  REQUIRE(report.size() == 4);  // PKC, SKC, PKT, SKT
  CHECK(report[0].key_labels == std::vector<std::string>{"pk"});
  REQUIRE(report[0].contributors.size() == 2);
  CHECK(report[0].contributors[0].keys[0].scalar == "bob");
  CHECK(report[0].contributors[0].value == 10.5);
  CHECK(report[0].contributors[0].maximum == 10.5);
  CHECK(report[0].contributors[1].keys[0].scalar == "alice");
  CHECK(report[0].contributors[1].value == 6);
  CHECK(report[1].key_labels == std::vector<std::string>{"pk", "sk"});
  CHECK(report[1].partition_labels == 1);
  REQUIRE(report[1].contributors.size() == 3);
  CHECK(report[1].contributors[0].keys[1].type == AttributeType::kN);
  CHECK(report[1].contributors[2].value == 0.5);  // bob/1: the Query was not an item's event
  CHECK(report[2].throttled_keys);
  REQUIRE(report[2].contributors.size() == 1);
  CHECK(report[2].contributors[0].value == 1);
  REQUIRE(report[3].contributors.size() == 1);
  SECTION("A minute's total and its busiest minute") {
    traffic.Accessed(in(alice1), true, 1, start + 2 * KeyTraffic::kMinuteMs);
    auto later = traffic.Report(start + 2 * KeyTraffic::kMinuteMs, 10);
    CHECK(later[0].contributors[0].keys[0].scalar == "bob");
    CHECK(later[0].contributors[1].value == 7);
    CHECK(later[0].contributors[1].maximum == 6);
  }
  SECTION("Minutes past the window no longer count, and their slots are reused") {
    const int64_t past = start + kInsightWindowMinutes * KeyTraffic::kMinuteMs;
    auto slid = traffic.Report(past, 10);
    REQUIRE(slid[0].contributors.size() == 1);  // alice's minute left the window
    CHECK(slid[0].contributors[0].keys[0].scalar == "bob");
    traffic.Accessed(in(bob1), true, 1, past);  // the slot of alice's minute, cleared
    slid = traffic.Report(past, 10);
    CHECK(slid[0].contributors[0].value == 11.5);
    // The minute `past` stays for the window's length, then leaves.
    CHECK(traffic.Report(past + (kInsightWindowMinutes - 1) * KeyTraffic::kMinuteMs, 10)[0]
              .contributors.size() == 1);
    CHECK(traffic.Report(past + kInsightWindowMinutes * KeyTraffic::kMinuteMs, 10)[0]
              .contributors.empty());
  }
  SECTION("top bounds each rule's list") {
    CHECK(traffic.Report(start + KeyTraffic::kMinuteMs, 1)[1].contributors.size() == 1);
  }
}

TEST_CASE("THROTTLED_KEYS counts throttles only, a key an access does not name counts nothing") {
  KeyParts key;
  key.partition.push_back({"pk", AttributeType::kS});
  KeyTraffic traffic(key, ContributorInsightsMode::kThrottledKeys);
  const Item item{{"pk", S("k")}};
  const Item other{{"x", S("k")}};
  const Item mistyped{{"pk", N("1")}};
  auto in = [](const Item& i) {
    return [&i](std::string_view name) { return FindAttribute(i, name); };
  };
  traffic.Accessed(in(item), true, 3, 0);
  traffic.Throttled(in(item), true, 0);
  traffic.Throttled(in(other), true, 0);
  traffic.Throttled(in(mistyped), true, 0);
  auto report = traffic.Report(0, 10);
  REQUIRE(report.size() == 1);  // PKT alone: no accesses counted, no sort key
  CHECK(report[0].throttled_keys);
  REQUIRE(report[0].contributors.size() == 1);
  CHECK(report[0].contributors[0].value == 1);
}

// The table's report of rule `rule` (0 PKC, 1 SKC, ...) as key text -> value.
std::map<std::string, double> Values(const Engine& engine, const std::string& table,
                                     const std::string& index, size_t rule) {
  std::map<std::string, double> values;
  auto reports = engine.ContributorInsightsReports(table, 64);
  REQUIRE(reports.ok());
  for (const ContributorInsightsReport& report : reports.value()) {
    if (report.index_name != index) continue;
    REQUIRE(rule < report.rules.size());
    for (const InsightContributor& contributor : report.rules[rule].contributors) {
      std::string key;
      for (const AttributeValue& value : contributor.keys)
        key += (key.empty() ? "" : "/") + value.scalar;
      values[key] = contributor.value;
    }
  }
  return values;
}

TEST_CASE("The item calls count 3 x write units + read units per key, PartiQL's and Scans not") {
  ManualClock clock;
  Engine engine(EngineOptions{}, clock);
  CreateTableArgs args = testing::OnDemandHashTable("Hot");
  args.attribute_definitions.push_back({"g", ScalarAttributeType::kS});
  args.global_secondary_indexes = {
      {"by-g", {{"g", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
  REQUIRE(engine.CreateTable(args).ok());
  // Nothing is counted before the enabling.
  REQUIRE(testing::Put(engine, "Hot", {{"pk", S("early")}, {"g", S("x")}}).ok());
  REQUIRE(engine.UpdateContributorInsights({"Hot", "", true, std::nullopt}).ok());
  REQUIRE(engine.UpdateContributorInsights({"Hot", "by-g", true, std::nullopt}).ok());
  CHECK(engine.ContributorInsightsReports("Hot", 10).value().size() == 2);
  for (int i = 0; i < 3; ++i)
    REQUIRE(testing::Put(engine, "Hot", {{"pk", S("a")}, {"g", S("x")}}).ok());
  REQUIRE(testing::Get(engine, "Hot", {{"pk", S("a")}}).ok());
  REQUIRE(testing::Get(engine, "Hot", {{"pk", S("b")}}).ok());  // a missing item costs too
  PutItemArgs partiql;
  partiql.table_name = "Hot";
  partiql.item = {{"pk", S("a")}};
  partiql.partiql = true;
  REQUIRE(engine.PutItem(partiql).ok());
  QueryArgs query;
  query.table_name = "Hot";
  query.read.index_name = "by-g";
  query.key_terms = {{"g", KeyTerm::Op::kEq, {S("x")}}};
  REQUIRE(engine.Query(query).ok());
  ScanArgs scan;
  scan.table_name = "Hot";
  REQUIRE(engine.Scan(scan).ok());
  // 3 puts x 3 x 1 unit, a 0.5 read; b's read; the PartiQL put and the Scan: nothing.
  CHECK(Values(engine, "Hot", "", 0) == std::map<std::string, double>{{"a", 9.5}, {"b", 0.5}});
  // The index: the first put wrote its entry (1 unit), the next two rewrote it alike (none);
  // the Query one event of 0.5.
  CHECK(Values(engine, "Hot", "by-g", 0) == std::map<std::string, double>{{"x", 3.5}});
  REQUIRE(engine.UpdateContributorInsights({"Hot", "", false, std::nullopt}).ok());
  auto reports = engine.ContributorInsightsReports("Hot", 10);
  REQUIRE(reports.value().size() == 1);
  CHECK(reports.value()[0].index_name == "by-g");
  CHECK(engine.ContributorInsightsReports("Absent", 10).error().code() ==
        ErrorCode::kResourceNotFound);
}

TEST_CASE("A throttled read or write counts for its key, a global index's write throttle not") {
  ManualClock clock;
  EngineOptions options;
  options.enforce_throughput = true;
  Engine engine(options, clock);
  CreateTableArgs args = testing::OnDemandHashTable("Slow");
  args.billing_mode = BillingMode::kProvisioned;
  args.provisioned_throughput = ProvisionedThroughput{1, 1};
  REQUIRE(engine.CreateTable(args).ok());
  REQUIRE(
      engine.UpdateContributorInsights({"Slow", "", true, ContributorInsightsMode::kThrottledKeys})
          .ok());
  int refused = 0;
  for (int i = 0; i < 5; ++i) {
    auto put = testing::Put(engine, "Slow", {{"pk", S("hot")}, {"v", S(std::string(3000, 'x'))}});
    if (!put.ok()) {
      CHECK(put.error().code() == ErrorCode::kProvisionedThroughputExceeded);
      ++refused;
    }
  }
  REQUIRE(refused > 0);
  auto reports = engine.ContributorInsightsReports("Slow", 10);
  REQUIRE(reports.ok());
  REQUIRE(reports.value()[0].rules.size() == 1);  // THROTTLED_KEYS: PKT alone
  CHECK(Values(engine, "Slow", "", 0) ==
        std::map<std::string, double>{{"hot", static_cast<double>(refused)}});
}

}  // namespace
}  // namespace ddbd
