// Issue 34: a damaged log never starts silently with data missing. A small store of two segments
// (each start writes a new one) has every byte flipped and every segment cut at every byte: each
// start recovers everything that was acknowledged, or refuses naming the file and offset; the one
// exception is the newest segment shortened or damaged inside its last record, which a crash
// leaves too, and which may lose that tail only. Point-in-time recovery starts anyway, moving what
// follows the damage to db/lost/. What the previous release (format version 1) wrote still opens.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "engine/model/item_codec.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/log_writer.h"
#include "tests/engine/engine_calls.h"
#include "tests/engine/memory_store.h"
#include "tests/values.h"

namespace ddbd {
namespace {

CreateTableArgs RecoveryTable() { return testing::OnDemandHashTable("Orders"); }

// The keys an engine holds (empty without the table).
std::set<std::string> Keys(Engine& engine, const std::string& table = "Orders") {
  std::set<std::string> keys;
  ScanArgs args;
  args.table_name = table;
  auto scanned = engine.Scan(args);
  if (!scanned.ok()) return keys;
  for (const std::string_view blob : scanned.value().item_blobs) {
    keys.insert(FindAttribute(DecodeItem(blob), "pk")->scalar);
  }
  return keys;
}

// Opens an engine on a copy of `files`; the outcome and what it said.
struct Opened {
  std::unique_ptr<Engine> engine;
  std::string error;
  std::vector<std::string> said;
};

Opened RecoveryOpen(MemoryFileSystem& files, const ManualClock& clock,
                    WalRecoveryMode mode = WalRecoveryMode::kTolerateCorruptedTail) {
  Opened opened;
  EngineOptions options;
  options.db_path = "db";
  options.file_system = &files;
  options.checkpoint_log_bytes = 0;
  options.wal_recovery_mode = mode;
  options.log = [&opened](Severity, const std::string& message) { opened.said.push_back(message); };
  auto engine = Engine::Open(options, clock);
  if (engine.ok()) {
    opened.engine = std::move(engine.value());
  } else {
    opened.error = engine.error().message();
  }
  return opened;
}

// Two segments: the table and a0..a4 in the first, b0..b4 in the second, each write durable.
struct TwoSegments {
  ManualClock clock;
  MemoryFileSystem files;
  std::string first = "db/" + LogSegmentName(1);
  std::string second = "db/" + LogSegmentName(2);
  TwoSegments() {
    for (const char* prefix : {"a", "b"}) {
      Opened opened = RecoveryOpen(files, clock);
      REQUIRE(opened.engine);
      if (*prefix == 'a') REQUIRE(opened.engine->CreateTable(RecoveryTable()).ok());
      for (int i = 0; i < 5; ++i) {
        REQUIRE(
            testing::Put(*opened.engine, "Orders", {{"pk", S(prefix + std::to_string(i))}}).ok());
        REQUIRE(testing::WaitDurable(*opened.engine).ok());
      }
    }
    REQUIRE(files.List("db").value() ==
            std::vector<std::string>{"0000000001.log", "0000000002.log"});
  }
  std::set<std::string> All() const {
    return {"a0", "a1", "a2", "a3", "a4", "b0", "b1", "b2", "b3", "b4"};
  }
  // A copy of the files with `path`'s bytes replaced.
  std::unique_ptr<MemoryFileSystem> With(const std::string& path, const std::string& bytes) {
    auto copy = files.Image();
    copy->Contents(path) = bytes;
    return copy;
  }
};

// A segment's records but the tables' numbers (kTableNumber, which each process writes before
// its first put of a table): in TwoSegments, the puts.
std::vector<LogRecord> Puts(const std::vector<LogRecord>& records) {
  std::vector<LogRecord> puts;
  for (const LogRecord& record : records) {
    if (record.kind != static_cast<uint8_t>(JournalKind::kTableNumber)) puts.push_back(record);
  }
  return puts;
}

// The keys of the second segment's records whose group (each write is one: log_format.h) ends
// before `offset`: what a crash that cut the segment there keeps.
std::set<std::string> KeptBefore(const std::string& second, size_t offset) {
  const std::set<std::string> first = {"a0", "a1", "a2", "a3", "a4"};
  std::set<std::string> kept = first;
  const std::vector<LogRecord> records = ReadLog("log", second).value().records.All();
  size_t put = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].kind == static_cast<uint8_t>(JournalKind::kTableNumber)) continue;
    const size_t end = i + 1 < records.size() ? records[i + 1].group_offset : second.size();
    if (end <= offset) kept.insert("b" + std::to_string(put));
    ++put;
  }
  return kept;
}

// A start on damaged files: refused naming the file and an offset, or everything there; or,
// where `tail_from` is set (the newest segment shortened, or damaged in its last record), at
// least the records before it. A start that recovered starts again alike.
// Returns whether it started.
bool CheckStart(MemoryFileSystem& files, const ManualClock& clock, const std::set<std::string>& all,
                const std::optional<std::set<std::string>>& tail, const std::string& damaged_file) {
  Opened opened = RecoveryOpen(files, clock);
  if (!opened.engine) {
    INFO(opened.error);
    CHECK(opened.error.find("db/") != std::string::npos);
    CHECK((opened.error.find(damaged_file) != std::string::npos ||
           opened.error.find("0000000002.log") != std::string::npos));
    CHECK(opened.error.find("offset") != std::string::npos);
    return false;
  }
  const std::set<std::string> keys = Keys(*opened.engine);
  if (tail) {
    for (const std::string& key : *tail) CHECK(keys.count(key) == 1);
    for (const std::string& key : keys) CHECK(all.count(key) == 1);
  } else {
    CHECK(keys == all);
  }
  opened.engine.reset();
  Opened again = RecoveryOpen(files, clock);
  REQUIRE(again.engine);
  CHECK(Keys(*again.engine) == keys);
  return true;
}

TEST_CASE("Every flipped byte of a log is recovered from or refused, never skipped silently") {
  TwoSegments store;
  const std::string first = store.files.ReadFile(store.first).value();
  const std::string second = store.files.ReadFile(store.second).value();
  const LogContents second_contents = ReadLog("log", second).value();
  // The last write's group: a crash could have torn it.
  const size_t last_group = second_contents.records.All().back().group_offset;
  size_t refused = 0;
  size_t recovered = 0;
  for (const auto* segment : {&store.first, &store.second}) {
    const std::string& whole = segment == &store.first ? first : second;
    for (size_t at = 0; at < whole.size(); ++at) {
      for (const uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}}) {
        INFO(*segment << " byte " << at << " mask " << int{mask});
        std::string flipped = whole;
        flipped[at] = static_cast<char>(static_cast<uint8_t>(flipped[at]) ^ mask);
        auto files = store.With(*segment, flipped);
        // Damage inside the newest segment's last group may lose that group only.
        std::optional<std::set<std::string>> tail;
        if (segment == &store.second && at >= last_group) tail = KeptBefore(second, last_group);
        const bool started = CheckStart(*files, store.clock, store.All(), tail, *segment);
        (started ? recovered : refused) += 1;
      }
    }
  }
  // Most damage is refused; flipped flags and the last group's bytes are not.
  CHECK(refused > recovered);
}

TEST_CASE("Every segment cut at every byte is recovered from or refused") {
  TwoSegments store;
  const std::string first = store.files.ReadFile(store.first).value();
  const std::string second = store.files.ReadFile(store.second).value();
  // The older segment: any cut loses acknowledged records, so every one is refused, record
  // boundaries included (the newer segment's header says how long it was).
  const LogContents first_contents = ReadLog("log", first).value();
  for (size_t cut = 0; cut < first.size(); ++cut) {
    INFO("first cut at " << cut);
    auto files = store.With(store.first, first.substr(0, cut));
    Opened opened = RecoveryOpen(*files, store.clock);
    REQUIRE_FALSE(opened.engine);
    INFO(opened.error);
    CHECK(opened.error.starts_with("db/0000000001.log: "));
    // Named at the last whole group's end (nothing of a header cut short is readable); a group
    // ends where its last record does, and the next one starts there.
    size_t readable = cut < kLogHeaderBytes ? 0 : kLogHeaderBytes;
    const std::vector<LogRecord> records = first_contents.records.All();
    for (size_t i = 0; i < records.size(); ++i) {
      const size_t length = records[i].payload.size();
      // Version 7's zeros after a record, up to a multiple of 4.
      const size_t end = records[i].offset + kLogRecordHeaderBytes + length +
                         ((0 - (kLogRecordHeaderBytes + length)) & 3);
      const bool group_ends = i + 1 == records.size() || records[i + 1].group_offset == end;
      if (group_ends && end <= cut) readable = end;
    }
    CHECK(opened.error.find(" at offset " + std::to_string(readable) + ";") != std::string::npos);
  }
  // The newest: a crash can leave it at any length; what was before the cut is all there.
  for (size_t cut = 0; cut <= second.size(); ++cut) {
    INFO("second cut at " << cut);
    auto files = store.With(store.second, second.substr(0, cut));
    CheckStart(*files, store.clock, store.All(), KeptBefore(second, cut), store.second);
  }
}

TEST_CASE(
    "A damaged record in the middle is refused with what would be lost, point-in-time "
    "recovery starts anyway and moves the rest aside") {
  TwoSegments store;
  std::string first = store.files.ReadFile(store.first).value();
  const LogContents contents = ReadLog("log", first).value();
  // The first group's length: today's bug made this an empty database that started normally.
  const size_t damaged_at = contents.records.All()[0].group_offset;
  // Counted before the damage: the records are views into `first`.
  const auto readable =
      std::count_if(contents.records.begin(), contents.records.end(),
                    [&](const LogRecord& record) { return record.group_offset != damaged_at; });
  first[damaged_at] ^= 0x04;
  auto files = store.With(store.first, first);
  Opened refused = RecoveryOpen(*files, store.clock);
  REQUIRE_FALSE(refused.engine);
  CHECK(refused.error ==
        "db/0000000001.log: record length damaged at offset 32; starting would lose " +
            std::to_string(first.size() - damaged_at) + " bytes of this file (" +
            std::to_string(readable) +
            " readable records), and 1 later segment (6 records, " +  // the table's number, 5 puts
            std::to_string(files->ReadFile(store.second).value().size()) +
            " bytes). ddbd does not start with part of its data missing; to start from the log "
            "up to this point and move the rest to db/lost/, start it with --wal-recovery-mode "
            "point-in-time");

  Opened anyway = RecoveryOpen(*files, store.clock, WalRecoveryMode::kPointInTime);
  REQUIRE(anyway.engine);
  CHECK(Keys(*anyway.engine).empty());  // the table's own record was the damaged one
  REQUIRE_FALSE(anyway.said.empty());
  CHECK(
      anyway.said[0].starts_with("point-in-time recovery: db/0000000001.log: record length "
                                 "damaged at offset 32"));
  CHECK(anyway.said[0].find("moved to db/lost/: 0000000001.log from offset 32") !=
        std::string::npos);
  CHECK(files->List("db/lost").value() ==
        std::vector<std::string>{"0000000001.log.from-32", "0000000002.log"});
  CHECK(files->ReadFile("db/lost/0000000001.log.from-32").value() == first.substr(damaged_at));
  // What was moved aside stays; the store goes on from the point in time, and starts again.
  REQUIRE(anyway.engine->CreateTable(RecoveryTable()).ok());
  REQUIRE(testing::Put(*anyway.engine, "Orders", {{"pk", S("new")}}).ok());
  REQUIRE(testing::WaitDurable(*anyway.engine).ok());
  anyway.engine.reset();
  Opened after = RecoveryOpen(*files, store.clock);
  REQUIRE(after.engine);
  CHECK(Keys(*after.engine) == std::set<std::string>{"new"});
}

TEST_CASE("Point-in-time recovery keeps everything before damage in a later segment") {
  TwoSegments store;
  std::string second = store.files.ReadFile(store.second).value();
  const LogContents contents = ReadLog("log", second).value();
  second[Puts(contents.records.All())[2].offset + kLogRecordHeaderBytes + 3] ^= 0x10;  // b2's
  auto files = store.With(store.second, second);
  Opened opened = RecoveryOpen(*files, store.clock, WalRecoveryMode::kPointInTime);
  REQUIRE(opened.engine);
  CHECK(Keys(*opened.engine) == std::set<std::string>{"a0", "a1", "a2", "a3", "a4", "b0", "b1"});
  opened.engine.reset();
  Opened again = RecoveryOpen(*files, store.clock);
  REQUIRE(again.engine);
  CHECK(Keys(*again.engine).size() == 7);
}

TEST_CASE("Every recovery reports what it did, a torn tail names file, offset and bytes") {
  TwoSegments store;
  const std::string second = store.files.ReadFile(store.second).value();
  auto files = store.With(store.second, second.substr(0, second.size() - 3));
  Opened opened = RecoveryOpen(*files, store.clock);
  REQUIRE(opened.engine);
  const size_t last = ReadLog("log", second).value().records.All().back().group_offset;
  REQUIRE(opened.said.size() == 2);
  CHECK(opened.said[0] == "db/0000000002.log: ignored " + std::to_string(second.size() - 3 - last) +
                              " bytes from offset " + std::to_string(last) +
                              " (group cut short): a write cut short, never acknowledged");
  // The table, a0-a4, b0-b3 (b4 torn) and each process's number for the table.
  CHECK(opened.said[1].starts_with("recovered db: 12 records ("));
  CHECK(opened.said[1].find("from 2 segments (0000000001.log to 0000000002.log), 1 torn tail "
                            "ignored, in ") != std::string::npos);
}

// The tables' numbers bound in a store's segments (kTableNumber), in log order.
std::vector<std::pair<uint64_t, std::string>> Bindings(MemoryFileSystem& files) {
  std::vector<std::pair<uint64_t, std::string>> bound;
  const std::vector<std::string> names = files.List("db").value();
  for (const std::string& name : names) {
    if (!LogSegmentNumber(name)) continue;
    const std::string bytes = files.ReadFile("db/" + name).value();
    const std::vector<LogRecord> records = ReadLog(name, bytes).value().records.All();
    for (const LogRecord& record : records) {
      if (record.kind != static_cast<uint8_t>(JournalKind::kTableNumber)) continue;
      auto fields = DecodeTableNumber(record.payload);
      REQUIRE(fields.ok());
      bound.emplace_back(fields.value().number, std::string(fields.value().table_id));
    }
  }
  return bound;
}

TEST_CASE("A put names its table by a number each process binds, again if it must") {
  ManualClock clock;
  MemoryFileSystem files;
  {
    // The first process numbers "Zones" 1 and "Orders" 2; its checkpoint binds both again (the
    // segment that bound them goes), and its last put is "Orders"' by number 2 after it.
    Opened first = RecoveryOpen(files, clock);
    REQUIRE(first.engine);
    REQUIRE(first.engine->CreateTable(testing::OnDemandHashTable("Zones")).ok());
    REQUIRE(first.engine->CreateTable(RecoveryTable()).ok());
    REQUIRE(testing::Put(*first.engine, "Zones", {{"pk", S("z0")}}).ok());
    REQUIRE(testing::Put(*first.engine, "Orders", {{"pk", S("a0")}}).ok());
    REQUIRE(first.engine->Checkpoint(true).value());
    REQUIRE(testing::Put(*first.engine, "Orders", {{"pk", S("a1")}}).ok());
    REQUIRE(testing::WaitDurable(*first.engine).ok());
  }
  {
    // The second recreates the tables in the checkpoint's order, by name: "Orders" gets 1 and
    // "Zones" 2, each bound anew before its first put.
    Opened second = RecoveryOpen(files, clock);
    REQUIRE(second.engine);
    REQUIRE(testing::Put(*second.engine, "Orders", {{"pk", S("b0")}}).ok());
    REQUIRE(testing::Put(*second.engine, "Zones", {{"pk", S("z1")}}).ok());
    REQUIRE(testing::Put(*second.engine, "Orders", {{"pk", S("b1")}}).ok());
    REQUIRE(testing::WaitDurable(*second.engine).ok());
  }
  const auto bound = Bindings(files);
  REQUIRE(bound.size() == 4);  // the checkpoint's two, then once per table in the second
  CHECK(bound[0].first == 2);
  CHECK(bound[1].first == 1);
  CHECK(bound[2].first == 1);  // bound[0]'s table ("Orders") by bound[1]'s number
  CHECK(bound[2].second == bound[0].second);
  CHECK(bound[3].first == 2);
  CHECK(bound[3].second == bound[1].second);
  Opened third = RecoveryOpen(files, clock);
  REQUIRE(third.engine);
  CHECK(Keys(*third.engine) == std::set<std::string>{"a0", "a1", "b0", "b1"});
  CHECK(Keys(*third.engine, "Zones") == std::set<std::string>{"z0", "z1"});
}

TEST_CASE("A store written by the previous release (log format 1) opens and recovers all") {
  // Segments as ddbd 0.1.0 wrote them: its header and records, written through today's codecs
  // (the payloads did not change), then reopened and continued in format 2.
  TwoSegments store;
  auto files = store.files.Image();
  for (const std::string& path : {store.first, store.second}) {
    const std::string bytes = store.files.ReadFile(path).value();  // the records view into it
    const LogContents contents = ReadLog("log", bytes).value();
    std::string old = LogV1Header();
    for (const LogRecord& record : contents.records) {
      AppendLogV1Record(old, record.kind, record.payload);
    }
    files->Contents(path) = old;
  }
  Opened opened = RecoveryOpen(*files, store.clock);
  REQUIRE(opened.engine);
  CHECK(Keys(*opened.engine) == store.All());
  REQUIRE(testing::Put(*opened.engine, "Orders", {{"pk", S("c0")}}).ok());
  REQUIRE(testing::WaitDurable(*opened.engine).ok());
  opened.engine.reset();
  Opened again = RecoveryOpen(*files, store.clock);
  REQUIRE(again.engine);
  CHECK(Keys(*again.engine).size() == 11);
  CHECK(ReadLog("log", files->ReadFile("db/" + LogSegmentName(3)).value()).value().version ==
        kLogFormatVersion);
}

}  // namespace
}  // namespace ddbd
