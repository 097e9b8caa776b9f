// Kinesis delivery (engine/kinesis/kinesis_delivery.h) through the engine, to a stand-in
// KinesisStreams that records what it is sent and answers as told: changes in order with both
// images, a partial answer's rest sent again, a missing stream failing the destination, a feed's
// records across table feeds, and the position kept across restarts and checkpoints. Delivery runs
// on the engine's own task, so the checks wait for it (never for a fixed time but the last,
// which checks that nothing more came).
#include "engine/api/kinesis_delivery.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/engine/memory_store.h"
#include "tests/values.h"

namespace ddbd {
namespace {

constexpr char kStream[] = "arn:aws:kinesis:us-east-1:000000000000:stream/orders";

class FakeKinesis final : public KinesisStreams {
 public:
  KinesisPutOutcome PutRecords(const KinesisBatch& batch) override {
    std::lock_guard lock(mutex_);
    KinesisPutOutcome outcome;
    outcome.delivered = batch.records.size();
    if (down_) {
      outcome.delivered = 0;
      outcome.failure = KinesisPutOutcome::Failure::kUnreachable;
    } else if (!answers_.empty()) {
      outcome = answers_.front();
      answers_.pop_front();
    }
    batches_.push_back(batch);
    for (size_t i = 0; i < outcome.delivered && i < batch.records.size(); ++i) {
      const Item keys = DecodeItem(batch.records[i].keys);
      taken_.push_back(FindAttribute(keys, "pk")->scalar);
    }
    return outcome;
  }
  void Answer(KinesisPutOutcome outcome) {
    std::lock_guard lock(mutex_);
    answers_.push_back(std::move(outcome));
  }
  void SetDown(bool down) {
    std::lock_guard lock(mutex_);
    down_ = down;
  }
  // The partition keys ("pk") of the records taken, in order, once there are `count` of them.
  std::vector<std::string> Taken(size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mutex_);
        if (taken_.size() >= count) return taken_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::lock_guard lock(mutex_);
    return taken_;
  }
  std::vector<KinesisBatch> Batches() {
    std::lock_guard lock(mutex_);
    return batches_;
  }

 private:
  std::mutex mutex_;
  bool down_ = false;
  std::deque<KinesisPutOutcome> answers_;
  std::vector<KinesisBatch> batches_;
  std::vector<std::string> taken_;
};

void KinesisDeliveryPut(Engine& engine, const std::string& pk) {
  REQUIRE(testing::Put(engine, "Orders", {{"pk", S(pk)}}).ok());
}

// Once the engine counts `count` records delivered: each delivery is logged before it is counted.
void WaitDelivered(Engine& engine, uint64_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto figures = engine.Statistics().kinesis;
    if (!figures.empty() && figures[0].delivered >= count) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  FAIL("not delivered");
}

// An engine in memory delivering to a stand-in, with the table "Orders".
struct Delivering {
  Delivering() {
    options.kinesis = kinesis;
    engine = std::make_unique<Engine>(options, clock);
    REQUIRE(engine->CreateTable(testing::OnDemandHashTable("Orders")).ok());
  }
  ManualClock clock;
  EngineOptions options;
  std::shared_ptr<FakeKinesis> kinesis = std::make_shared<FakeKinesis>();
  std::unique_ptr<Engine> engine;
};

DestinationStatus StatusOf(Engine& engine) {
  return engine.DescribeKinesisStreamingDestination("Orders").value().destinations.at(0).status;
}

TEST_CASE("Delivery sends changes in order with both images, a partial answer's rest goes again") {
  Delivering delivering;
  Engine& engine = *delivering.engine;
  FakeKinesis* kinesis = delivering.kinesis.get();
  KinesisDeliveryPut(engine, "before");  // before the destination: not sent
  REQUIRE(engine.EnableKinesisStreamingDestination({"Orders", kStream, std::nullopt}).ok());
  KinesisDeliveryPut(engine, "a");
  REQUIRE(testing::Put(engine, "Orders", {{"pk", S("a")}, {"v", S("2")}}).ok());
  CHECK(kinesis->Taken(2) == std::vector<std::string>{"a", "a"});
  const KinesisBatch first = kinesis->Batches().front();
  CHECK(first.stream_arn == kStream);
  CHECK(first.table_name == "Orders");
  CHECK(first.region == "us-east-1");
  CHECK(first.precision == TimestampPrecision::kMicrosecond);
  CHECK(first.feed_arn.find("/kinesis-feed/") != std::string::npos);
  std::vector<StreamRecord> records;
  for (const KinesisBatch& batch : kinesis->Batches()) {
    records.insert(records.end(), batch.records.begin(), batch.records.end());
  }
  REQUIRE(records.size() == 2);
  CHECK(records[0].kind == ChangeKind::kInsert);
  CHECK(records[1].kind == ChangeKind::kModify);
  CHECK(DecodeItem(records[1].old_image) == Item{{"pk", S("a")}});
  CHECK(DecodeItem(records[1].new_image) == Item{{"pk", S("a")}, {"v", S("2")}});

  // Two taken of four, the rest refused (throttled): they go again, in order, after a backoff.
  kinesis->Answer({2, KinesisPutOutcome::Failure::kRefused, "ProvisionedThroughputExceeded"});
  auto batch = engine.BatchWriteItem([] {
    BatchWriteItemArgs args;
    for (const char* pk : {"b", "c", "d", "e"}) {
      args.requests.push_back({"Orders", WriteRequest::Kind::kPut, Item{{"pk", S(pk)}}});
    }
    return args;
  }());
  REQUIRE(batch.ok());
  CHECK(kinesis->Taken(6) == std::vector<std::string>{"a", "a", "b", "c", "d", "e"});
  const auto statistics = engine.Statistics();
  REQUIRE(statistics.kinesis.size() == 1);
  CHECK(statistics.kinesis[0].delivered == 6);
  CHECK(statistics.kinesis[0].failures == 1);
  CHECK(statistics.kinesis[0].pending == 0);
}

TEST_CASE("A stream that is not there fails the destination, which may be enabled again") {
  Delivering delivering;
  Engine& engine = *delivering.engine;
  FakeKinesis* kinesis = delivering.kinesis.get();
  REQUIRE(engine.EnableKinesisStreamingDestination({"Orders", kStream, std::nullopt}).ok());
  kinesis->Answer({0, KinesisPutOutcome::Failure::kStreamNotFound,
                   "ResourceNotFoundException: Stream orders under account 000000000000 not "
                   "found."});
  KinesisDeliveryPut(engine, "lost");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (StatusOf(engine) != DestinationStatus::kEnableFailed &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const auto described = engine.DescribeKinesisStreamingDestination("Orders").value();
  CHECK(described.destinations[0].status == DestinationStatus::kEnableFailed);
  CHECK(described.destinations[0].status_description ==
        "ResourceNotFoundException: Stream orders under account 000000000000 not found.");
  // Re-enabled: a new feed, from now on (the failed one's record is not sent).
  REQUIRE(engine.EnableKinesisStreamingDestination({"Orders", kStream, std::nullopt}).ok());
  KinesisDeliveryPut(engine, "after");
  CHECK(kinesis->Taken(1) == std::vector<std::string>{"after"});
  CHECK(StatusOf(engine) == DestinationStatus::kActive);
  CHECK(engine.DescribeKinesisStreamingDestination("Orders")
            .value()
            .destinations[0]
            .status_description.empty());
}

TEST_CASE("A feed's position survives restarts and checkpoints: each record is sent once") {
  testing::MemoryStore store;
  auto kinesis = std::make_shared<FakeKinesis>();
  auto open = [&] {
    EngineOptions options = store.Options();
    options.kinesis = kinesis;
    auto engine = Engine::Open(options, store.clock);
    REQUIRE(engine.ok());
    return std::move(engine.value());
  };
  {
    auto engine = open();
    REQUIRE(engine->CreateTable(testing::OnDemandHashTable("Orders")).ok());
    REQUIRE(engine->EnableKinesisStreamingDestination({"Orders", kStream, std::nullopt}).ok());
    KinesisDeliveryPut(*engine, "sent");
    WaitDelivered(*engine, 1);
    kinesis->SetDown(true);
    KinesisDeliveryPut(*engine, "held1");
    KinesisDeliveryPut(*engine, "held2");
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  store.files.Crash();
  kinesis->SetDown(false);
  const std::vector<std::string> all = {"sent", "held1", "held2"};
  {
    auto engine = open();  // from the log
    CHECK(kinesis->Taken(3) == all);
    REQUIRE(engine->Checkpoint(true).ok());
  }
  {
    auto engine = open();  // from the checkpoint
    KinesisDeliveryPut(*engine, "new");
    CHECK(kinesis->Taken(4) == std::vector<std::string>{"sent", "held1", "held2", "new"});
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(kinesis->Taken(5).size() == 4);
  }
}

}  // namespace
}  // namespace ddbd
