// Contributor Insights settings (engine/insights/insight_settings.h): statuses in transit and
// settled, the rules named for a table and its global indexes, through the engine on a manual
// clock, and the setting's codec.
#include <catch2/catch.hpp>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/insights/insight_settings.h"
#include "engine/persistence/insights_codec.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

TEST_CASE("Contributor Insights shows ENABLING and DISABLING for the table delay, then settles") {
  ContributorInsightsSetting setting{"", true, 1000,
                                     ContributorInsightsMode::kAccessedAndThrottledKeys, 1000};
  CHECK(StatusAt(setting, 1049, 50) == ContributorInsightsStatus::kEnabling);
  CHECK(StatusAt(setting, 1050, 50) == ContributorInsightsStatus::kEnabled);
  setting.enabled = false;
  CHECK(StatusAt(setting, 1000, 50) == ContributorInsightsStatus::kDisabling);
  CHECK(StatusAt(setting, 1000, 0) == ContributorInsightsStatus::kDisabled);
}

TEST_CASE("Rules are named for the table, by the enabling's time, sort key rules with a sort key") {
  ManualClock clock;
  Engine engine(EngineOptions{}, clock);
  CreateTableArgs args = testing::OnDemandHashTable("Orders");
  args.attribute_definitions.push_back({"g", ScalarAttributeType::kS});
  args.attribute_definitions.push_back({"h", ScalarAttributeType::kS});
  args.global_secondary_indexes = {
      {"by-g-h", {{"g", KeyType::kHash}, {"h", KeyType::kRange}}, {}, std::nullopt, std::nullopt}};
  REQUIRE(engine.CreateTable(args).ok());
  REQUIRE(engine.UpdateContributorInsights({"Orders", "", true, std::nullopt}).ok());
  auto table = engine.DescribeContributorInsights("Orders", "");
  REQUIRE(table.ok());
  CHECK(table.value().rules ==
        std::vector<std::string>{"DynamoDBContributorInsights-PKC-Orders-1700000000000",
                                 "DynamoDBContributorInsights-PKT-Orders-1700000000000"});
  clock.AdvanceMs(5);
  REQUIRE(engine
              .UpdateContributorInsights(
                  {"Orders", "by-g-h", true, ContributorInsightsMode::kAccessedAndThrottledKeys})
              .ok());
  CHECK(engine.DescribeContributorInsights("Orders", "by-g-h").value().rules ==
        std::vector<std::string>{"DynamoDBContributorInsights-PKC-Orders-1700000000005",
                                 "DynamoDBContributorInsights-SKC-Orders-1700000000005",
                                 "DynamoDBContributorInsights-PKT-Orders-1700000000005",
                                 "DynamoDBContributorInsights-SKT-Orders-1700000000005"});
  CHECK(engine.DescribeContributorInsights("Orders", "absent").error().code() ==
        ErrorCode::kResourceNotFound);
  auto listed = engine.ListContributorInsights({std::nullopt, 1, std::nullopt});
  REQUIRE(listed.ok());
  REQUIRE(listed.value().summaries.size() == 1);
  CHECK(listed.value().summaries[0].index_name.empty());
  auto next = engine.ListContributorInsights({std::nullopt, 1, listed.value().next_token});
  REQUIRE(next.ok());
  REQUIRE(next.value().summaries.size() == 1);
  CHECK(next.value().summaries[0].index_name == "by-g-h");
  CHECK_FALSE(next.value().next_token);
}

TEST_CASE("A Contributor Insights setting round-trips through its codec") {
  ContributorInsightsSetting setting{"by-g", true, 1234, ContributorInsightsMode::kThrottledKeys,
                                     1200};
  auto back = DecodeContributorInsights(EncodeContributorInsights(setting));
  REQUIRE(back);
  CHECK(back->index_name == "by-g");
  CHECK(back->enabled);
  CHECK(back->changed_ms == 1234);
  CHECK(back->mode == ContributorInsightsMode::kThrottledKeys);
  CHECK(back->rules_created_ms == 1200);
  CHECK_FALSE(DecodeContributorInsights("\xff\xff"));
}

}  // namespace
}  // namespace ddbd
