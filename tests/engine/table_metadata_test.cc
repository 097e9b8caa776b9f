// Tags on tables (engine/tags/tag_operations.h): merging and removing keys, the 50-tag limit and
// the reserved "aws:" prefix (also on CreateTable), the ARNs that name a table, and tags kept
// across a restart as part of the table's description. Resource policies
// (engine/policies/resource_policies.h): revisions, expected revisions, the stream's own slot,
// and a restart. Point-in-time recovery settings (engine/api/continuous_backups.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/persistence/file_system.h"

namespace ddbd {
namespace {

const std::string kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders";

CreateTableArgs TableMetadataOrders(std::vector<Tag> tags = {}) {
  CreateTableArgs args;
  args.table_name = "Orders";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.tags = std::move(tags);
  return args;
}

std::vector<std::string> TableMetadataKeys(const Engine& engine) {
  auto listed = engine.ListTagsOfResource({kArn, std::nullopt});
  REQUIRE(listed.ok());
  std::vector<std::string> keys;
  for (const Tag& tag : listed.value().tags) keys.push_back(tag.key + "=" + tag.value);
  return keys;
}

TEST_CASE("Tags merge by key, untag ignores absent keys, and the limits hold") {
  ManualClock clock;
  Engine engine({}, clock);
  REQUIRE(engine.CreateTable(TableMetadataOrders({{"a", "1"}, {"b", "2"}, {"a", "3"}})).ok());
  CHECK(TableMetadataKeys(engine) ==
        std::vector<std::string>{"a=3", "b=2"});  // the last of a repeated key
  REQUIRE(engine.TagResource({kArn, {{"c", "4"}, {"a", "5"}}}).ok());
  CHECK(TableMetadataKeys(engine) == std::vector<std::string>{"a=5", "b=2", "c=4"});
  REQUIRE(engine.UntagResource({kArn, {"b", "zzz"}}).ok());
  CHECK(TableMetadataKeys(engine) == std::vector<std::string>{"a=5", "c=4"});
  auto page = engine.ListTagsOfResource({kArn, std::string("a")});
  REQUIRE(page.value().tags.size() == 1);
  CHECK(page.value().tags[0].key == "c");

  std::vector<Tag> many;
  for (int i = 0; i < 48; ++i) many.push_back({"k" + std::to_string(i), ""});
  REQUIRE(engine.TagResource({kArn, many}).ok());  // 50 in all
  auto refused = engine.TagResource({kArn, {{"one-more", ""}}});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kValidation);
  CHECK(TableMetadataKeys(engine).size() == 50);         // nothing changed
  CHECK(engine.TagResource({kArn, {{"a", "6"}}}).ok());  // a new value is not a new tag
  auto reserved = engine.TagResource({kArn, {{"aws:owner", "x"}}});
  REQUIRE_FALSE(reserved.ok());
  CHECK(reserved.error().message().find("'aws:'") != std::string::npos);
  CHECK_FALSE(engine.TagResource({kArn, {{"AWS:owner", "x"}}}).ok());  // in any letter case
  CHECK(engine.TagResource({kArn, {{"awsx:owner", "x"}}}).error().message().find("50") !=
        std::string::npos);  // not reserved: refused only as the 51st tag

  many.push_back({"k48", ""});
  many.push_back({"k49", ""});
  many.push_back({"k50", ""});
  CreateTableArgs crowded = TableMetadataOrders(many);
  crowded.table_name = "Crowded";
  CHECK(engine.CreateTable(crowded).error().code() == ErrorCode::kValidation);
  CHECK(engine.DescribeTable("Crowded").error().code() == ErrorCode::kResourceNotFound);
}

TEST_CASE("Tag requests name tables by ARN") {
  ManualClock clock;
  Engine engine({}, clock);
  REQUIRE(engine.CreateTable(TableMetadataOrders()).ok());
  auto message = [&](const std::string& arn) {
    auto listed = engine.ListTagsOfResource({arn, std::nullopt});
    REQUIRE_FALSE(listed.ok());
    return listed.error().message();
  };
  CHECK(message("Orders") == "ARNs must start with 'arn:'");
  CHECK(message(kArn + "/index/gsi") ==
        "Invalid TableArn: Invalid ResourceArn provided as input " + kArn + "/index/gsi");
  CHECK(message(kArn + "s") == "Requested resource not found: ResourcArn: " + kArn + "s not found");
  const std::string elsewhere = "arn:aws:dynamodb:eu-west-1:000000000000:table/Orders";
  CHECK(message(elsewhere) ==
        "Requested resource not found: ResourcArn: " + elsewhere + " not found");
  REQUIRE(engine.DeleteTable("Orders").ok());
  CHECK(message(kArn) == "Requested resource not found: ResourcArn: " + kArn + " not found");
}

TEST_CASE("Tags are kept across a restart") {
  MemoryFileSystem files;
  ManualClock clock;
  EngineOptions options;
  options.db_path = "db";
  options.file_system = &files;
  {
    auto engine = Engine::Open(options, clock);
    REQUIRE(engine.ok());
    REQUIRE(engine.value()->CreateTable(TableMetadataOrders({{"a", "1"}})).ok());
    REQUIRE(engine.value()->TagResource({kArn, {{"b", "2"}}}).ok());
    REQUIRE(engine.value()->UntagResource({kArn, {"a"}}).ok());
    REQUIRE(engine.value()->PutResourcePolicy({kArn, "{}", std::nullopt}).ok());
  }
  auto engine = Engine::Open(options, clock);
  REQUIRE(engine.ok());
  CHECK(TableMetadataKeys(*engine.value()) == std::vector<std::string>{"b=2"});
  auto policy = engine.value()->GetResourcePolicy(kArn);
  REQUIRE(policy.ok());
  CHECK(policy.value().policy == "{}");
  CHECK(policy.value().revision_id == std::to_string(clock.NowMs()));
}

TEST_CASE("Resource policies: revisions rise, expected revisions are checked, streams are apart") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs orders = TableMetadataOrders();
  orders.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  orders.resource_policy = "first";
  auto created = engine.CreateTable(orders);
  REQUIRE(created.ok());
  const std::string first = std::to_string(clock.NowMs());
  CHECK(engine.GetResourcePolicy(kArn).value().revision_id == first);
  // Within the same millisecond, the next revision is still a new one.
  auto second = engine.PutResourcePolicy({kArn, "second", first});
  REQUIRE(second.ok());
  CHECK(std::stoll(second.value().revision_id) == std::stoll(first) + 1);
  CHECK(engine.PutResourcePolicy({kArn, "second", std::nullopt}).value().revision_id ==
        second.value().revision_id);
  auto stale = engine.PutResourcePolicy({kArn, "third", first});
  REQUIRE_FALSE(stale.ok());
  CHECK(stale.error().code() == ErrorCode::kPolicyNotFound);
  const std::string stream = kArn + "/stream/" + created.value().latest_stream_label;
  CHECK(engine.GetResourcePolicy(stream).error().code() == ErrorCode::kPolicyNotFound);
  REQUIRE(engine.PutResourcePolicy({stream, "streamed", kNoPolicy}).ok());
  CHECK(engine.DeleteResourcePolicy({kArn, std::nullopt}).value().revision_id ==
        second.value().revision_id);
  CHECK(engine.GetResourcePolicy(stream).value().policy == "streamed");
  CHECK(engine.PutResourcePolicy({kArn, std::string(kMaxPolicyBytes + 1, 'x'), std::nullopt})
            .error()
            .code() == ErrorCode::kValidation);
}

TEST_CASE("Point-in-time recovery: the restorable window follows the setting and the clock") {
  ManualClock clock;
  Engine engine({}, clock);
  REQUIRE(engine.CreateTable(TableMetadataOrders()).ok());
  CHECK_FALSE(engine.DescribeContinuousBackups("Orders").value().point_in_time_recovery_enabled);
  const int64_t enabled_at = clock.NowMs();
  auto enabled = engine.UpdateContinuousBackups({"Orders", true, 2});
  REQUIRE(enabled.ok());
  CHECK(enabled.value().recovery_period_in_days == 2);
  CHECK(enabled.value().earliest_restorable_ms == enabled_at);
  CHECK(enabled.value().latest_restorable_ms == enabled_at);  // never before the earliest
  clock.AdvanceMs(int64_t{3} * 24 * 3'600'000);  // three days on: the window is the last two
  auto described = engine.DescribeContinuousBackups("Orders").value();
  CHECK(described.earliest_restorable_ms == clock.NowMs() - int64_t{2} * 24 * 3'600'000);
  CHECK(described.latest_restorable_ms == clock.NowMs() - EngineOptions{}.pitr_lag_ms);
  REQUIRE(engine.UpdateContinuousBackups({"Orders", false, std::nullopt}).ok());
  CHECK_FALSE(engine.DescribeContinuousBackups("Orders").value().point_in_time_recovery_enabled);
  auto missing = engine.DescribeContinuousBackups("Nope");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == ErrorCode::kTableNotFound);
  CHECK(missing.error().message() == "Table not found: Nope");
}

}  // namespace
}  // namespace ddbd
