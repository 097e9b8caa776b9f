// Stream triggers (engine/triggers/stream_triggers.h) through the engine, to a stand-in function
// that records each batch and answers as told: order and batch sizes, attaching to a table made
// later and following its stream across disable and enable, retries until MaximumRetryAttempts
// then the failure destination, bisection, partial batch responses, filters, records past their
// age, LATEST, and the position across a crash. Delivery runs on the engine's own task, so the
// checks wait for it (never for a fixed time but where they check that nothing more came).
#include "engine/api/stream_triggers.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/engine/memory_store.h"
#include "tests/values.h"

namespace ddbd {
namespace {

std::string Pk(const StreamRecord& record) {
  return FindAttribute(DecodeItem(record.keys), "pk")->scalar;
}

class FakeFunction final : public StreamTriggerFunction {
 public:
  using Answer = std::function<StreamTriggerOutcome(const StreamTriggerBatch&)>;

  bool Selects(const StreamTriggerBatch&, const StreamRecord& record) override {
    std::lock_guard lock(mutex_);
    return !select_ || select_(record);
  }
  StreamTriggerOutcome Invoke(const StreamTriggerBatch& batch) override {
    std::lock_guard lock(mutex_);
    batches_.push_back(batch);
    StreamTriggerOutcome outcome;
    if (!answers_.empty()) {
      outcome = answers_.front()(batch);
      answers_.pop_front();
    }
    if (outcome.result == StreamTriggerOutcome::Result::kSuccess) {
      for (const StreamRecord& record : batch.records) {
        if (outcome.first_failure && record.sequence >= *outcome.first_failure) break;
        handled_.push_back(Pk(record));
      }
    }
    return outcome;
  }
  void Discard(const StreamTriggerBatch& batch, StreamTriggerDiscard why, int invocations,
               const StreamTriggerOutcome&) override {
    std::lock_guard lock(mutex_);
    for (const StreamRecord& record : batch.records) discarded_.push_back(Pk(record));
    whys_.push_back(why);
    discard_invocations_.push_back(invocations);
  }

  void Then(Answer answer) {
    std::lock_guard lock(mutex_);
    answers_.push_back(std::move(answer));
  }
  void ClearAnswers() {
    std::lock_guard lock(mutex_);
    answers_.clear();
  }
  void Select(std::function<bool(const StreamRecord&)> select) {
    std::lock_guard lock(mutex_);
    select_ = std::move(select);
  }
  // The keys handled, in order, once there are `count` of them (or after 10 s).
  std::vector<std::string> Handled(size_t count) { return Wait(handled_, count); }
  std::vector<std::string> Discarded(size_t count) { return Wait(discarded_, count); }
  std::vector<StreamTriggerBatch> Batches() {
    std::lock_guard lock(mutex_);
    return batches_;
  }
  std::vector<std::string> BatchKeys() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> keys;
    for (const StreamTriggerBatch& batch : batches_) {
      std::string text;
      for (const StreamRecord& record : batch.records) text += Pk(record);
      keys.push_back(text);
    }
    return keys;
  }
  std::vector<StreamTriggerDiscard> whys() {
    std::lock_guard lock(mutex_);
    return whys_;
  }
  std::vector<int> discard_invocations() {
    std::lock_guard lock(mutex_);
    return discard_invocations_;
  }

 private:
  std::vector<std::string> Wait(const std::vector<std::string>& list, size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mutex_);
        if (list.size() >= count) return list;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::lock_guard lock(mutex_);
    return list;
  }

  std::mutex mutex_;
  std::deque<Answer> answers_;
  std::function<bool(const StreamRecord&)> select_;
  std::vector<StreamTriggerBatch> batches_;
  std::vector<std::string> handled_;
  std::vector<std::string> discarded_;
  std::vector<StreamTriggerDiscard> whys_;
  std::vector<int> discard_invocations_;
};

StreamTriggerOutcome FunctionError(const StreamTriggerBatch&) {
  StreamTriggerOutcome outcome;
  outcome.result = StreamTriggerOutcome::Result::kFunctionError;
  outcome.status = 200;
  return outcome;
}

CreateTableArgs StreamTable(const std::string& name) {
  CreateTableArgs args = testing::OnDemandHashTable(name);
  args.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  return args;
}

void StreamTriggersPut(Engine& engine, const std::string& pk) {
  REQUIRE(testing::Put(engine, "Orders", {{"pk", S(pk)}}).ok());
}

void StreamTriggersPutAll(Engine& engine, std::initializer_list<const char*> keys) {
  BatchWriteItemArgs args;
  for (const char* pk : keys) {
    args.requests.push_back({"Orders", WriteRequest::Kind::kPut, Item{{"pk", S(pk)}}});
  }
  REQUIRE(engine.BatchWriteItem(args).ok());
}

StreamTriggerSettings Settings(std::shared_ptr<FakeFunction> function) {
  StreamTriggerSettings settings;
  settings.name = "Orders=http://localhost:9000/";
  settings.table_name = "Orders";
  settings.function = std::move(function);
  return settings;
}

// Nothing more handled for a while.
void Settle() { std::this_thread::sleep_for(std::chrono::milliseconds(150)); }

TEST_CASE(
    "A trigger attaches to a table made later, in order, in batches, and follows a new stream") {
  auto function = std::make_shared<FakeFunction>();
  ManualClock clock;
  EngineOptions options;
  StreamTriggerSettings settings = Settings(function);
  settings.batch_size = 2;
  options.stream_triggers = {settings};
  Engine engine(options, clock);
  Settle();  // the trigger's first pass finds no table
  REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
  StreamTriggersPutAll(engine, {"a", "b", "c", "d", "e"});
  CHECK(function->Handled(5) == std::vector<std::string>{"a", "b", "c", "d", "e"});
  for (const StreamTriggerBatch& batch : function->Batches()) {
    CHECK(batch.records.size() <= 2);
    CHECK(batch.region == "us-east-1");
    CHECK(batch.view_type == StreamViewType::kNewAndOldImages);
    CHECK(batch.shard_id.starts_with("shardId-"));
  }
  const std::string first_arn = function->Batches().front().stream_arn;
  CHECK(first_arn.starts_with("arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/"));
  auto figures = engine.Statistics().stream_triggers;
  REQUIRE(figures.size() == 1);
  CHECK(figures[0].delivered == 5);
  CHECK(figures[0].pending == 0);
  CHECK(figures[0].stream_arn == first_arn);

  // Disabled and enabled again: a new stream, read from its start.
  UpdateTableArgs off;
  off.table_name = "Orders";
  off.stream_specification = StreamSpecification{false, std::nullopt};
  REQUIRE(engine.UpdateTable(off).ok());
  StreamTriggersPut(engine, "unseen");  // no stream: no record
  clock.AdvanceMs(10);
  UpdateTableArgs on;
  on.table_name = "Orders";
  on.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  REQUIRE(engine.UpdateTable(on).ok());
  StreamTriggersPut(engine, "f");
  CHECK(function->Handled(6).back() == "f");
  const StreamTriggerBatch last = function->Batches().back();
  CHECK(last.stream_arn != first_arn);
  CHECK(last.view_type == StreamViewType::kKeysOnly);
  Settle();
  CHECK(function->Handled(0).size() == 6);
}

TEST_CASE("A failing batch is retried MaximumRetryAttempts times, then given up, or bisected") {
  auto function = std::make_shared<FakeFunction>();
  ManualClock clock;
  EngineOptions options;
  StreamTriggerSettings settings = Settings(function);
  settings.retry_attempts = 2;
  SECTION("whole batches") {
    // One batch of the three (the window waits on a clock that stands still).
    settings.batch_size = 3;
    settings.batching_window_ms = 1'000;
    options.stream_triggers = {settings};
    Engine engine(options, clock);
    REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
    for (int i = 0; i < 3; ++i) function->Then(FunctionError);
    StreamTriggersPutAll(engine, {"a", "b", "c"});
    CHECK(function->Discarded(3) == std::vector<std::string>{"a", "b", "c"});
    CHECK(function->whys() ==
          std::vector<StreamTriggerDiscard>{StreamTriggerDiscard::kRetryAttemptsExhausted});
    CHECK(function->discard_invocations() == std::vector<int>{3});  // the first and two retries
    StreamTriggersPut(engine, "d");
    clock.AdvanceMs(2'000);  // its window is over
    CHECK(function->Handled(1) == std::vector<std::string>{"d"});
    const auto figures = engine.Statistics().stream_triggers.at(0);
    CHECK(figures.discarded == 3);
    CHECK(figures.function_errors == 3);
    CHECK(figures.invocations == 4);
  }
  SECTION("bisected until the bad record stands alone") {
    // A batch of four, whole (the window waits on a clock that stands still).
    settings.batch_size = 4;
    settings.batching_window_ms = 1'000;
    settings.bisect_on_error = true;
    settings.retry_attempts = 0;
    options.stream_triggers = {settings};
    Engine engine(options, clock);
    REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
    // Fails any batch holding "c".
    for (int i = 0; i < 20; ++i) {
      function->Then([](const StreamTriggerBatch& batch) {
        for (const StreamRecord& record : batch.records) {
          if (Pk(record) == "c") return FunctionError(batch);
        }
        return StreamTriggerOutcome{};
      });
    }
    StreamTriggersPutAll(engine, {"a", "b", "c", "d"});
    CHECK(function->Handled(3) == std::vector<std::string>{"a", "b", "d"});
    CHECK(function->Discarded(1) == std::vector<std::string>{"c"});
    // abcd fails; ab passes; cd fails; c fails alone (no retries); d passes.
    CHECK(function->BatchKeys() == std::vector<std::string>{"abcd", "ab", "cd", "c", "d"});
  }
}

TEST_CASE("A partial batch response resumes at the first record it names") {
  auto function = std::make_shared<FakeFunction>();
  ManualClock clock;
  EngineOptions options;
  StreamTriggerSettings settings = Settings(function);
  settings.batch_size = 4;
  settings.batching_window_ms = 1'000;
  options.stream_triggers = {settings};
  Engine engine(options, clock);
  REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
  function->Then([](const StreamTriggerBatch& batch) {
    StreamTriggerOutcome outcome;
    outcome.first_failure = batch.records.at(2).sequence;
    return outcome;
  });
  StreamTriggersPutAll(engine, {"a", "b", "c", "d"});
  CHECK(function->Handled(4) == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(function->BatchKeys() == std::vector<std::string>{"abcd", "cd"});
  const auto figures = engine.Statistics().stream_triggers.at(0);
  CHECK(figures.delivered == 4);
  CHECK(figures.function_errors == 1);
}

TEST_CASE(
    "Filters pass records over, records past their age are given up, LATEST starts at the end") {
  auto function = std::make_shared<FakeFunction>();
  ManualClock clock;
  EngineOptions options;
  StreamTriggerSettings settings = Settings(function);
  SECTION("filters") {
    options.stream_triggers = {settings};
    Engine engine(options, clock);
    function->Select([](const StreamRecord& record) { return Pk(record) != "skip"; });
    REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
    StreamTriggersPutAll(engine, {"a", "skip", "b"});
    REQUIRE(testing::Put(engine, "Orders", {{"pk", S("skip")}, {"v", S("2")}}).ok());
    StreamTriggersPut(engine, "c");
    CHECK(function->Handled(3) == std::vector<std::string>{"a", "b", "c"});
    Settle();
    const auto figures = engine.Statistics().stream_triggers.at(0);
    CHECK(figures.filtered == 2);
    CHECK(figures.pending == 0);
  }
  SECTION("age") {
    settings.max_record_age_ms = 60'000;
    options.stream_triggers = {settings};
    Engine engine(options, clock);
    REQUIRE(engine.CreateTable(StreamTable("Orders")).ok());
    for (int i = 0; i < 1000; ++i) function->Then(FunctionError);
    StreamTriggersPut(engine, "old");
    Settle();
    clock.AdvanceMs(61'000);
    CHECK(function->Discarded(1) == std::vector<std::string>{"old"});
    CHECK(function->whys() ==
          std::vector<StreamTriggerDiscard>{StreamTriggerDiscard::kRecordAgeExceeded});
    CHECK(function->discard_invocations().at(0) > 0);
  }
  SECTION("LATEST starts at the stream's end when the server starts") {
    testing::MemoryStore store;
    {
      auto engine = Engine::Open(store.Options(), store.clock);
      REQUIRE(engine.ok());
      REQUIRE(engine.value()->CreateTable(StreamTable("Orders")).ok());
      StreamTriggersPut(*engine.value(), "before");
    }
    settings.start_at_latest = true;
    EngineOptions with = store.Options();
    with.stream_triggers = {settings};
    auto engine = Engine::Open(with, store.clock);
    REQUIRE(engine.ok());
    Settle();
    StreamTriggersPut(*engine.value(), "after");
    CHECK(function->Handled(1) == std::vector<std::string>{"after"});
    Settle();
    CHECK(function->Handled(0).size() == 1);
  }
}

TEST_CASE("A trigger's position survives a crash: nothing handled is sent again") {
  testing::MemoryStore store;
  auto function = std::make_shared<FakeFunction>();
  auto open = [&] {
    EngineOptions options = store.Options();
    options.stream_triggers = {Settings(function)};
    auto engine = Engine::Open(options, store.clock);
    REQUIRE(engine.ok());
    return std::move(engine.value());
  };
  {
    auto engine = open();
    REQUIRE(engine->CreateTable(StreamTable("Orders")).ok());
    StreamTriggersPutAll(*engine, {"a", "b"});
    CHECK(function->Handled(2).size() == 2);
    Settle();  // its position is kept
    for (int i = 0; i < 1000; ++i) function->Then(FunctionError);
    StreamTriggersPut(*engine, "held");
    REQUIRE(testing::WaitDurable(*engine).ok());
    Settle();
  }
  store.files.Crash();
  function->ClearAnswers();
  auto engine = open();
  CHECK(function->Handled(3) == std::vector<std::string>{"a", "b", "held"});
  Settle();
  CHECK(function->Handled(0).size() == 3);
}

}  // namespace
}  // namespace ddbd
