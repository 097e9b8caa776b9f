// Checkpoints written while the engine serves (engine/store/checkpoint.cc), on an in-memory
// file system: the log shrinks to about what it holds; a crash at any moment (before, during or
// after a checkpoint, with transactions and puts going on) keeps every acknowledged write, no
// half of a transaction, and a stream holding each change once; a full disk fails the checkpoint
// alone; the size rule decides when.
#include <atomic>
#include <catch2/catch.hpp>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/log_writer.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

EngineOptions Options(FileSystem* files, int64_t checkpoint_log_bytes = 0) {
  EngineOptions options;
  options.db_path = "db";
  options.file_system = files;
  options.checkpoint_log_bytes = checkpoint_log_bytes;  // 0: no thread, the test calls it
  return options;
}

std::unique_ptr<Engine> Open(FileSystem* files, const Clock& clock, int64_t log_bytes = 0) {
  auto engine = Engine::Open(Options(files, log_bytes), clock);
  INFO((engine.ok() ? std::string() : engine.error().message()));
  REQUIRE(engine.ok());
  return std::move(engine.value());
}

void Durable(Engine& engine) { REQUIRE(testing::WaitDurable(engine).ok()); }

CreateTableArgs Pairs() {
  CreateTableArgs args;
  args.table_name = "Pairs";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}, {"tag", ScalarAttributeType::kN}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.global_secondary_indexes = {
      {"by-tag", {{"tag", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
  return args;
}

// With a stream: its records are state a checkpoint keeps too.
CreateTableArgs StreamedPairs() {
  CreateTableArgs args = Pairs();
  args.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  return args;
}

// The stream's history of each writer's items: the tags its records put, in order. Checks on
// the way that sequence numbers only go up (no record twice).
std::map<std::string, std::vector<int64_t>> TagsStreamed(Engine& engine) {
  auto table = engine.DescribeTable("Pairs");
  REQUIRE(table.ok());
  auto records = testing::StreamRecords(
      engine, table.value().table_arn + "/stream/" + table.value().latest_stream_label);
  REQUIRE(records.ok());
  std::map<std::string, std::vector<int64_t>> tags;
  uint64_t last = 0;
  for (const StreamRecord& record : records.value()) {
    CHECK(record.sequence > last);
    last = record.sequence;
    const Item item = DecodeItem(record.new_image);
    const std::string pk = FindAttribute(item, "pk")->scalar;
    if (pk.starts_with("w")) tags[pk].push_back(std::stoll(FindAttribute(item, "tag")->scalar));
  }
  return tags;
}

// The tag of item `pk`, or -1 if there is none.
int64_t Tag(Engine& engine, const std::string& pk) {
  auto got = testing::Get(engine, "Pairs", {{"pk", S(pk)}});
  REQUIRE(got.ok());
  if (!got.value().item) return -1;
  return std::stoll(FindAttribute(DecodeItem(got.value().item->blob), "tag")->scalar);
}

size_t Segments(const MemoryFileSystem& files) {
  size_t segments = 0;
  const std::vector<std::string> names = files.List("db").value();
  for (const std::string& name : names) {
    if (LogSegmentNumber(name)) ++segments;
  }
  return segments;
}

TransactWriteItemsArgs PutPair(const std::string& writer, int64_t tag) {
  TransactWriteItemsArgs args;
  for (const char* half : {"x", "y"}) {
    TransactWriteAction put;
    put.kind = TransactWriteAction::Kind::kPut;
    put.table_name = "Pairs";
    put.item = {{"pk", S(writer + half)}, {"tag", N(std::to_string(tag))}};
    args.actions.push_back(put);
  }
  return args;
}

TEST_CASE(
    "A crash at any moment around checkpoints keeps acknowledged writes, no half transaction") {
  MemoryFileSystem files;
  ManualClock clock;
  auto engine = Open(&files, clock);
  REQUIRE(engine->CreateTable(StreamedPairs()).ok());
  for (int i = 0; i < 300; ++i) {  // something for each checkpoint to walk
    REQUIRE(
        testing::Put(*engine, "Pairs", {{"pk", S("filler" + std::to_string(i))}, {"tag", N("0")}})
            .ok());
  }
  Durable(*engine);

  // Two writers: transactions that put a pair with the same tag, then a single put; what each
  // has had acknowledged is published after its write is durable.
  constexpr int kWriters = 2;
  std::atomic<bool> running = true;
  std::atomic<int64_t> acknowledged[kWriters] = {-1, -1};
  // Catch's assertions are not for other threads: the writers count their failures.
  std::atomic<int> failures = 0;
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const std::string name = "w" + std::to_string(w);
      for (int64_t tag = 0; running; ++tag) {
        bool ok = engine->TransactWriteItems(PutPair(name, tag)).ok();
        ok = ok && testing::Put(*engine, "Pairs",
                                {{"pk", S(name + "z")}, {"tag", N(std::to_string(tag))}})
                       .ok();
        ok = ok && testing::WaitDurable(*engine).ok();
        if (!ok) {
          ++failures;
          return;
        }
        acknowledged[w] = tag;
      }
    });
  }
  // Crash images taken all along, each with what had been acknowledged before it.
  struct Image {
    int64_t acknowledged[kWriters];
    std::unique_ptr<MemoryFileSystem> files;
  };
  std::vector<Image> images;
  std::thread imager([&] {
    while (running) {
      Image image;
      for (int w = 0; w < kWriters; ++w) image.acknowledged[w] = acknowledged[w];
      image.files = files.Image();
      images.push_back(std::move(image));
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  for (int round = 0; round < 6; ++round) {
    auto written = engine->Checkpoint(true);
    REQUIRE(written.ok());
    CHECK(written.value());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  running = false;
  for (std::thread& writer : writers) writer.join();
  imager.join();
  CHECK(failures == 0);
  REQUIRE(engine->Checkpoint(true).ok());
  CHECK(Segments(files) == 2);  // the checkpoint and the segment after it
  REQUIRE(images.size() > 5);

  for (size_t i = 0; i < images.size(); ++i) {
    INFO("image " << i);
    auto restored = Open(images[i].files.get(), clock);
    for (int w = 0; w < kWriters; ++w) {
      const std::string name = "w" + std::to_string(w);
      const int64_t x = Tag(*restored, name + "x");
      CHECK(x == Tag(*restored, name + "y"));  // a pair is whole
      CHECK(x >= images[i].acknowledged[w]);   // and nothing acknowledged is lost
      CHECK(Tag(*restored, name + "z") >= images[i].acknowledged[w]);
    }
    if (images[i].acknowledged[0] >= 0 && images[i].acknowledged[1] >= 0) {
      CHECK(restored->DescribeTable("Pairs").value().item_count == 300 + 3 * kWriters);
    }
    // The stream holds each item's history exactly: every tag it had, once, in order, up to
    // the one it has (a change and its record come back together, never twice).
    const std::map<std::string, std::vector<int64_t>> streamed = TagsStreamed(*restored);
    for (int w = 0; w < kWriters; ++w) {
      for (const char* half : {"x", "y", "z"}) {
        const std::string pk = "w" + std::to_string(w) + half;
        const int64_t tag = Tag(*restored, pk);
        std::vector<int64_t> expected;
        for (int64_t t = 0; t <= tag; ++t) expected.push_back(t);
        auto found = streamed.find(pk);
        CHECK((found == streamed.end() ? std::vector<int64_t>() : found->second) == expected);
      }
    }
  }
  // The running engine's own state after a clean stop.
  const int64_t last = Tag(*engine, "w0x");
  engine.reset();
  files.Crash();
  auto reopened = Open(&files, clock);
  CHECK(Tag(*reopened, "w0x") == last);
  CHECK(Tag(*reopened, "filler7") == 0);
}

TEST_CASE("A checkpoint replaces the log: deleted tables and items stay gone, indexes come back") {
  MemoryFileSystem files;
  ManualClock clock;
  {
    auto engine = Open(&files, clock);
    REQUIRE(engine->CreateTable(Pairs()).ok());
    CreateTableArgs other = Pairs();
    other.table_name = "Other";
    REQUIRE(engine->CreateTable(other).ok());
    for (int round = 0; round < 20; ++round) {
      for (int i = 0; i < 40; ++i) {
        REQUIRE(testing::Put(*engine, "Pairs",
                             {{"pk", S("p" + std::to_string(i))},
                              {"tag", N(std::to_string(round))},
                              {"pad", S(std::string(500, 'x'))}})
                    .ok());
      }
    }
    REQUIRE(testing::Delete(*engine, "Pairs", {{"pk", S("p3")}}).ok());
    REQUIRE(engine->DeleteTable("Other").ok());
    Durable(*engine);
    const size_t before = files.ReadFile("db/" + LogSegmentName(1)).value().size();
    REQUIRE(engine->Checkpoint(true).value());
    // Segment 1 went; 2 is the checkpoint, 3 what comes after.
    CHECK_FALSE(files.ReadFile("db/" + LogSegmentName(1)).ok());
    CHECK(files.ReadFile("db/" + LogSegmentName(2)).value().size() < before / 10);
    REQUIRE(testing::Put(*engine, "Pairs", {{"pk", S("after")}, {"tag", N("99")}}).ok());
    Durable(*engine);
  }
  files.Crash();
  auto engine = Open(&files, clock);
  auto table = engine->DescribeTable("Pairs");
  REQUIRE(table.ok());
  CHECK(table.value().item_count == 40);
  REQUIRE(table.value().indexes.size() == 1);
  CHECK(table.value().indexes[0].item_count == 40);
  CHECK(Tag(*engine, "p7") == 19);
  CHECK(Tag(*engine, "p3") == -1);
  CHECK(Tag(*engine, "after") == 99);
  CHECK(engine->DescribeTable("Other").error().code() == ErrorCode::kResourceNotFound);
}

TEST_CASE("A checkpoint on a full disk fails alone, the next one, with space, succeeds") {
  MemoryFileSystem files;
  ManualClock clock;
  auto engine = Open(&files, clock);
  REQUIRE(engine->CreateTable(Pairs()).ok());
  for (int i = 0; i < 200; ++i) {
    REQUIRE(testing::Put(*engine, "Pairs",
                         {{"pk", S("p" + std::to_string(i))},
                          {"tag", N("1")},
                          {"pad", S(std::string(200, 'x'))}})
                .ok());
  }
  Durable(*engine);
  files.SetSpaceLimit(files.ReadFile("db/" + LogSegmentName(1)).value().size() + 10'000);
  CHECK_FALSE(engine->Checkpoint(true).ok());
  CHECK(Tag(*engine, "p5") == 1);  // reads go on
  files.SetSpaceLimit(SIZE_MAX);
  REQUIRE(engine->Checkpoint(true).value());
  REQUIRE(testing::Put(*engine, "Pairs", {{"pk", S("p5")}, {"tag", N("2")}}).ok());
  Durable(*engine);
  engine.reset();
  files.Crash();
  engine = Open(&files, clock);
  CHECK(engine->DescribeTable("Pairs").value().item_count == 200);
  CHECK(Tag(*engine, "p5") == 2);
  CHECK_FALSE(files.ReadFile("db/checkpoint.tmp").ok());
}

TEST_CASE("A checkpoint comes once the log has grown past the setting and the data") {
  MemoryFileSystem files;
  ManualClock clock;
  auto engine = Open(&files, clock, 20'000);
  REQUIRE(engine->CreateTable(Pairs()).ok());
  auto put = [&](int i) {
    REQUIRE(testing::Put(*engine, "Pairs",
                         {{"pk", S("p" + std::to_string(i % 10))},
                          {"tag", N(std::to_string(i))},
                          {"pad", S(std::string(1000, 'x'))}})
                .ok());
    Durable(*engine);
  };
  for (int i = 0; i < 5; ++i) put(i);
  CHECK_FALSE(engine->Checkpoint(false).value());  // ~5 KB logged: under the setting
  for (int i = 5; i < 40; ++i) put(i);
  // The background thread (once a second) or this call writes it; either way the log is
  // rewritten and the next call finds nothing grown.
  (void)engine->Checkpoint(false).value();
  CHECK(Segments(files) == 2);
  CHECK_FALSE(engine->Checkpoint(false).value());
}

}  // namespace
}  // namespace ddbd
