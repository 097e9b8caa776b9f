// UpdateTable's GlobalSecondaryIndexUpdates: backfill, deletion, throughput, statuses, errors.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/engine.h"
#include "engine/storage/change.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

using Action = GlobalSecondaryIndexUpdate::Action;

struct IndexUpdateFixture {
  ManualClock clock;
  Engine engine;

  explicit IndexUpdateFixture(int64_t delay_ms = 0, BillingMode mode = BillingMode::kPayPerRequest)
      : engine(EngineOptions{"us-east-1", "000000000000", delay_ms}, clock) {
    CreateTableArgs args;
    args.table_name = "Orders";
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
    args.key_schema = {{"pk", KeyType::kHash}};
    args.billing_mode = mode;
    if (mode == BillingMode::kProvisioned)
      args.provisioned_throughput = ProvisionedThroughput{5, 5};
    REQUIRE(engine.CreateTable(args).ok());
  }

  void Put(const std::string& pk, std::optional<std::string> status) {
    Item item = {{"pk", S(pk)}};
    if (status) item.emplace_back("status", S(*status));
    REQUIRE(testing::Put(engine, "Orders", item).ok());
  }

  static GlobalSecondaryIndexUpdate Create(const std::string& name) {
    GlobalSecondaryIndexUpdate update;
    update.action = Action::kCreate;
    update.index.index_name = name;
    update.index.key_schema = {{"status", KeyType::kHash}};
    update.index.projection.projection_type = ProjectionType::kAll;
    return update;
  }
  static GlobalSecondaryIndexUpdate Named(Action action, const std::string& name) {
    GlobalSecondaryIndexUpdate update;
    update.action = action;
    update.index.index_name = name;
    return update;
  }

  Result<TableOutcome> Update(std::vector<GlobalSecondaryIndexUpdate> updates,
                              std::vector<AttributeDefinition> definitions = {
                                  {"status", ScalarAttributeType::kS}}) {
    UpdateTableArgs args;
    args.table_name = "Orders";
    args.attribute_definitions = std::move(definitions);
    args.global_secondary_index_updates = std::move(updates);
    return engine.UpdateTable(args);
  }

  Result<ReadPage> Query(const std::string& index, const std::string& status) {
    QueryArgs args;
    args.table_name = "Orders";
    args.read.index_name = index;
    args.key_terms = {{"status", KeyTerm::Op::kEq, {S(status)}}};
    return engine.Query(args);
  }
};

TEST_CASE("A created index is backfilled from the items already there") {
  IndexUpdateFixture f;
  f.Put("a", "open");
  f.Put("b", "shipped");
  f.Put("c", std::nullopt);  // sparse: no entry
  auto updated = f.Update({IndexUpdateFixture::Create("by-status")});
  REQUIRE(updated.ok());
  REQUIRE(updated.value().indexes.size() == 1);
  CHECK(updated.value().indexes[0].index_status == TableStatus::kActive);
  CHECK(updated.value().indexes[0].item_count == 2);
  CHECK(updated.value().attribute_definitions.size() == 2);
  auto open = f.Query("by-status", "open");
  REQUIRE(open.ok());
  REQUIRE(open.value().item_blobs.size() == 1);

  // Writes after the change maintain it.
  f.Put("d", "open");
  CHECK(f.Query("by-status", "open").value().item_blobs.size() == 2);
}

TEST_CASE("A deleted index is gone at once, with its attribute definition") {
  IndexUpdateFixture f;
  f.Put("a", "open");
  REQUIRE(f.Update({IndexUpdateFixture::Create("by-status")}).ok());
  auto deleted = f.Update({IndexUpdateFixture::Named(Action::kDelete, "by-status")}, {});
  REQUIRE(deleted.ok());
  CHECK(deleted.value().indexes.empty());
  CHECK(deleted.value().attribute_definitions.size() == 1);
  auto query = f.Query("by-status", "open");
  REQUIRE_FALSE(query.ok());
  CHECK(query.error().message() == "The table does not have the specified index: by-status");
  f.Put("b", "open");  // writes no longer touch the dropped slot

  // A new index gets a new slot and sees only what is there now.
  auto again = f.Update({IndexUpdateFixture::Create("by-status")});
  REQUIRE(again.ok());
  CHECK(again.value().indexes[0].item_count == 2);
}

TEST_CASE("With a table delay, a new index is CREATING and backfilling until the update ends") {
  IndexUpdateFixture f(1000);
  f.clock.AdvanceMs(1000);
  auto updated = f.Update({IndexUpdateFixture::Create("by-status")});
  REQUIRE(updated.ok());
  CHECK(updated.value().table_status == TableStatus::kUpdating);
  CHECK(updated.value().indexes[0].index_status == TableStatus::kCreating);
  CHECK(updated.value().indexes[0].backfilling);
  auto early = f.Query("by-status", "open");
  REQUIRE_FALSE(early.ok());
  CHECK(early.error().message() ==
        "Cannot read from backfilling global secondary index: by-status");
  f.clock.AdvanceMs(1000);
  CHECK(f.Query("by-status", "open").ok());
  auto described = f.engine.DescribeTable("Orders");
  CHECK(described.value().indexes[0].index_status == TableStatus::kActive);
  CHECK_FALSE(described.value().indexes[0].backfilling);

  auto deleting = f.Update({IndexUpdateFixture::Named(Action::kDelete, "by-status")}, {});
  REQUIRE(deleting.ok());
  CHECK(deleting.value().indexes[0].index_status == TableStatus::kDeleting);
  f.clock.AdvanceMs(1000);
  CHECK(f.engine.DescribeTable("Orders").value().indexes.empty());
}

TEST_CASE("Index updates are refused with DynamoDB's errors") {
  IndexUpdateFixture f;
  REQUIRE(f.Update({IndexUpdateFixture::Create("by-status")}).ok());
  auto two = f.Update(
      {IndexUpdateFixture::Create("one"), IndexUpdateFixture::Named(Action::kDelete, "by-status")});
  REQUIRE_FALSE(two.ok());
  CHECK(two.error().code() == ErrorCode::kLimitExceeded);
  CHECK(two.error().message() ==
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously "
        "per table");

  auto exists = f.Update({IndexUpdateFixture::Create("by-status")});
  CHECK(exists.error().message() == "Attempting to create an index which already exists");

  auto missing = f.Update({IndexUpdateFixture::Named(Action::kDelete, "nope")}, {});
  CHECK(missing.error().code() == ErrorCode::kResourceNotFound);  // measured against AWS
  CHECK(missing.error().message() == "Requested resource not found");

  auto undefined = f.Update({IndexUpdateFixture::Create("other")}, {});
  CHECK(undefined.error().message() ==
        "One or more parameter values were invalid: AttributeDefinitions is not specified for "
        "index: other");

  auto wrong =
      f.Update({IndexUpdateFixture::Create("other")}, {{"region", ScalarAttributeType::kS}});
  CHECK(wrong.error().message() ==
        "One or more parameter values were invalid: Some index key attributes are not defined in "
        "AttributeDefinitions. Keys: [status], AttributeDefinitions: [region]");

  auto with_throughput = IndexUpdateFixture::Create("other");
  with_throughput.index.provisioned_throughput = ProvisionedThroughput{1, 1};
  CHECK(f.Update({with_throughput}).error().message() ==
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
        "WriteCapacityUnits can be specified for index: other when BillingMode is "
        "PAY_PER_REQUEST");

  // Nothing changed on any refusal.
  CHECK(f.engine.DescribeTable("Orders").value().indexes.size() == 1);
}

TEST_CASE("A provisioned table's index needs throughput, and an Update changes it") {
  IndexUpdateFixture f(0, BillingMode::kProvisioned);
  CHECK(f.Update({IndexUpdateFixture::Create("by-status")}).error().message() ==
        "One or more parameter values were invalid: ProvisionedThroughput must be specified for "
        "index: by-status");
  auto create = IndexUpdateFixture::Create("by-status");
  create.index.provisioned_throughput = ProvisionedThroughput{2, 3};
  REQUIRE(f.Update({create}).ok());

  auto update = IndexUpdateFixture::Named(Action::kUpdate, "by-status");
  update.index.provisioned_throughput = ProvisionedThroughput{2, 3};
  auto same = f.Update({update}, {});
  REQUIRE_FALSE(same.ok());
  CHECK(same.error().message().starts_with(
      "The provisioned throughput for the index by-status will not change."));
  update.index.provisioned_throughput = ProvisionedThroughput{7, 8};
  auto changed = f.Update({update}, {});
  REQUIRE(changed.ok());
  CHECK(changed.value().indexes[0].definition.provisioned_throughput->read_capacity_units == 7);

  auto unknown = IndexUpdateFixture::Named(Action::kUpdate, "nope");
  unknown.index.provisioned_throughput = ProvisionedThroughput{1, 1};
  CHECK(f.Update({unknown}, {}).error().message() ==
        "The table does not have the specified index: nope");
}

TEST_CASE("Writes racing an index creation end up in the index") {
  IndexUpdateFixture f;
  std::thread writer([&] {
    for (int i = 0; i < 2000; ++i) f.Put("w" + std::to_string(i), "open");
  });
  while (f.engine.DescribeTable("Orders").value().item_count < 500) std::this_thread::yield();
  REQUIRE(f.Update({IndexUpdateFixture::Create("by-status")}).ok());
  writer.join();
  CHECK(f.engine.DescribeTable("Orders").value().indexes[0].item_count == 2000);
}

// Holds the first backfill at its first item, with the table's write lock (a backfill holds it
// throughout), until released: while held, the backfill is certainly under way, however fast the
// build (a release build backfilled 30,000 items before a 50 ms sleep was over). Subscribe it
// before the first write; it must outlive the engine.
class BackfillGate : public CommitObserver {
 public:
  void OnCommit(const ChangeRecord& change) override {
    if (change.origin != ChangeOrigin::kBackfill) return;
    std::unique_lock lock(mutex_);
    if (held_) return;
    held_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
  }
  void WaitUntilHeld() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return held_; });
  }
  // Lets the backfill go after `hold` (from a thread of its own: what the test times meanwhile
  // must not be able to keep it held forever, were it to wait for the backfill).
  std::thread ReleaseAfter(std::chrono::milliseconds hold) {
    return std::thread([this, hold] {
      std::this_thread::sleep_for(hold);
      std::unique_lock lock(mutex_);
      released_ = true;
      changed_.notify_all();
    });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false;
  bool released_ = false;
};

// How long a gated backfill is held. What must not wait for it has to take less than half.
constexpr std::chrono::milliseconds kHold{600};

TEST_CASE("A backfill holds up its own table only: other tables are served meanwhile") {
  BackfillGate gate;
  IndexUpdateFixture f;
  f.engine.Subscribe(&gate);
  for (int i = 0; i < 1000; ++i) f.Put("p" + std::to_string(i), "open");
  CreateTableArgs other;
  other.table_name = "Other";
  other.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  other.key_schema = {{"pk", KeyType::kHash}};
  other.billing_mode = BillingMode::kPayPerRequest;
  REQUIRE(f.engine.CreateTable(other).ok());
  REQUIRE(testing::Put(f.engine, "Other", {{"pk", S("x")}}).ok());

  using Clock = std::chrono::steady_clock;
  std::atomic<bool> done = false;
  bool updated = false;
  std::thread updater([&] {
    updated = f.Update({IndexUpdateFixture::Create("by-status")}).ok();
    done = true;
  });
  gate.WaitUntilHeld();
  std::thread releaser = gate.ReleaseAfter(kHold);
  // Reads of the other table while the backfill is held: the longest wait between two answers.
  Clock::duration longest_wait{};
  Clock::time_point last = Clock::now();
  int failed_reads = 0;
  while (!done) {
    if (!testing::Get(f.engine, "Other", {{"pk", S("x")}}).ok()) ++failed_reads;
    const Clock::time_point now = Clock::now();
    longest_wait = std::max(longest_wait, now - last);
    last = now;
  }
  updater.join();
  releaser.join();
  REQUIRE(updated);
  CHECK(failed_reads == 0);
  CHECK(f.engine.DescribeTable("Orders").value().indexes[0].item_count == 1000);
  // With the catalog held through the backfill, one read waits for all of it.
  CHECK(longest_wait < kHold / 2);
}

// Creates table "Other" and returns how long that took.
std::chrono::steady_clock::duration TimeCreateOther(Engine& engine, bool& created) {
  CreateTableArgs other;
  other.table_name = "Other";
  other.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  other.key_schema = {{"pk", KeyType::kHash}};
  other.billing_mode = BillingMode::kPayPerRequest;
  const auto began = std::chrono::steady_clock::now();
  created = engine.CreateTable(other).ok();
  return std::chrono::steady_clock::now() - began;
}

TEST_CASE("Describing a table that is backfilling waits without holding up other tables") {
  BackfillGate gate;
  IndexUpdateFixture f;
  f.engine.Subscribe(&gate);
  for (int i = 0; i < 1000; ++i) f.Put("p" + std::to_string(i), "open");
  std::atomic<bool> updated = false;
  std::thread updater([&] { updated = f.Update({IndexUpdateFixture::Create("by-status")}).ok(); });
  gate.WaitUntilHeld();
  std::thread releaser = gate.ReleaseAfter(kHold);
  int64_t described_count = -1;
  std::thread describer(
      [&] { described_count = f.engine.DescribeTable("Orders").value().indexes[0].item_count; });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // DescribeTable is waiting
  // A catalog change needs the catalog to itself: it must not wait for that DescribeTable.
  bool created = false;
  const auto create_took = TimeCreateOther(f.engine, created);
  const bool backfill_still_running = !updated;
  updater.join();
  describer.join();
  releaser.join();
  CHECK(created);
  CHECK(updated);
  CHECK(backfill_still_running);
  CHECK(create_took < kHold / 2);
  CHECK(described_count == 1000);  // it saw the index full
}

TEST_CASE("A second index change waits for a backfill without holding up other tables") {
  BackfillGate gate;
  IndexUpdateFixture f;
  f.engine.Subscribe(&gate);
  for (int i = 0; i < 1000; ++i) f.Put("p" + std::to_string(i), "open");
  std::atomic<bool> first_done = false;
  bool first_updated = false;
  std::thread first([&] {
    first_updated = f.Update({IndexUpdateFixture::Create("by-status")}).ok();
    first_done = true;
  });
  gate.WaitUntilHeld();
  std::thread releaser = gate.ReleaseAfter(kHold);
  bool second_updated = false;
  std::thread second(
      [&] { second_updated = f.Update({IndexUpdateFixture::Create("by-status-2")}).ok(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the second change is waiting
  // A catalog change needs the catalog to itself: it must not wait for the second change.
  bool created = false;
  const auto create_took = TimeCreateOther(f.engine, created);
  const bool backfill_still_running = !first_done;
  first.join();
  second.join();
  releaser.join();
  CHECK(created);
  CHECK(backfill_still_running);
  CHECK(create_took < kHold / 2);
  // Both changes were made, each index full.
  REQUIRE(first_updated);
  REQUIRE(second_updated);
  const TableDescription described = f.engine.DescribeTable("Orders").value();
  REQUIRE(described.indexes.size() == 2);
  CHECK(described.indexes[0].item_count == 1000);
  CHECK(described.indexes[1].item_count == 1000);
}

}  // namespace
}  // namespace ddbd
