// Log segments in groups (log_format.h, kLogGrouped), written into files grown ahead with zeros:
// the zeros after the last group are the end, not damage; a crash that tears the last group
// anywhere (a hole in the middle, a readable record after it) loses that group only; damage with
// a whole group after it is refused as before. And the group commit's start (sync_policy.h): a
// group waits for it, a Flush does not, a writer stopping writes what waited.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/persistence/file_system.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/log_writer.h"

namespace ddbd {
namespace {

std::string Records(const std::vector<std::string>& payloads) {
  std::string records;
  for (const std::string& payload : payloads) AppendLogRecord(records, 1, payload);
  return records;
}

// A grouped segment: one group per entry of `groups`, then `zeros` zero bytes.
std::string Grouped(const std::vector<std::vector<std::string>>& groups, size_t zeros = 0) {
  std::string bytes = LogHeader(kLogGrouped);
  for (const auto& group : groups) AppendLogGroup(bytes, Records(group));
  bytes.append(zeros, '\0');
  return bytes;
}

std::vector<std::string> LogGroupsPayloads(const LogContents& contents) {
  std::vector<std::string> payloads;
  for (const LogRecord& record : contents.records) payloads.emplace_back(record.payload);
  return payloads;
}

TEST_CASE("Grouped records come back as written, and zeros after the last group are the end") {
  const std::string written = Grouped({{"a", "b"}, {"c"}});
  for (const size_t zeros : {size_t{0}, size_t{1}, size_t{12}, size_t{13}, size_t{1} << 20}) {
    INFO(zeros << " zeros");
    const std::string bytes = written + std::string(zeros, '\0');
    const LogContents contents = ReadLog("log", bytes).value();
    CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"a", "b", "c"});
    CHECK_FALSE(contents.damaged);
    CHECK(contents.valid_bytes == written.size());
    const std::vector<LogRecord> records = contents.records.All();
    REQUIRE(records.size() == 3);
    CHECK(records[0].group_offset == kLogHeaderBytes);
    CHECK(records[1].group_offset == kLogHeaderBytes);
    CHECK(records[2].group_offset > records[1].offset);
    CHECK(records[0].offset > records[0].group_offset);
  }
}

// Version 2 wrote groups without zeros after each record (log_format.h).
std::string V2Record(uint8_t kind, std::string_view payload) {
  std::string record(12, '\0');
  const uint32_t length = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) record[static_cast<size_t>(i)] = static_cast<char>(length >> (8 * i));
  const uint32_t length_check = LengthCheck(std::string_view(record).substr(0, 4));
  const uint32_t crc = MaskedCrc32c(kind, payload);
  for (int i = 0; i < 4; ++i) {
    record[4 + static_cast<size_t>(i)] = static_cast<char>(length_check >> (8 * i));
    record[8 + static_cast<size_t>(i)] = static_cast<char>(crc >> (8 * i));
  }
  record.push_back(static_cast<char>(kind));
  record.append(payload);
  return record;
}

std::string V2Grouped(const std::vector<std::vector<std::string>>& groups) {
  std::string bytes = LogHeader(kLogGrouped);
  bytes[8] = 2;  // the version
  for (const auto& group : groups) {
    std::string records;
    for (const std::string& payload : group) records += V2Record(1, payload);
    std::string opening(8, '\0');
    const uint32_t length = static_cast<uint32_t>(records.size());
    const uint32_t crc = MaskedCrc32c(kLogGroupKind, records);
    for (int i = 0; i < 4; ++i) {
      opening[static_cast<size_t>(i)] = static_cast<char>(length >> (8 * i));
      opening[4 + static_cast<size_t>(i)] = static_cast<char>(crc >> (8 * i));
    }
    bytes += V2Record(kLogGroupKind, opening) + records;
  }
  return bytes;
}

// ReadLog keeps no list of the records: they are walked again from the bytes (LogRecords), which
// must step over every group's opening record, empty groups too, in both grouped versions.
TEST_CASE("The records walked again are those read: empty groups and payloads, versions 2 and 7") {
  const std::vector<std::vector<std::string>> groups = {
      {"a", "", "bcdefgh"}, {}, {std::string(70'000, 'y')}, {}, {"", "z"}};
  const std::vector<std::string> expected = {"a", "", "bcdefgh", std::string(70'000, 'y'), "", "z"};
  for (const std::string& bytes : {Grouped(groups, 100), V2Grouped(groups)}) {
    const LogContents contents = ReadLog("log", bytes).value();
    CHECK(contents.version == (bytes == V2Grouped(groups) ? 2u : kLogFormatVersion));
    CHECK_FALSE(contents.damaged);
    CHECK(LogGroupsPayloads(contents) == expected);
    CHECK(contents.records.size() == expected.size());
    for (const LogRecord& record : contents.records) {
      CHECK(record.kind == 1);
      CHECK(record.offset > record.group_offset);
    }
  }
  // A torn last group: the walk ends with the last whole one.
  const std::string whole = Grouped(groups);
  const std::string cut = whole.substr(0, whole.size() - 1);
  const LogContents torn = ReadLog("log", cut).value();
  CHECK(LogGroupsPayloads(torn) == std::vector<std::string>(expected.begin(), expected.end() - 2));
  CHECK(torn.records.size() == expected.size() - 2);
}

TEST_CASE("A walk over bytes changed after they were read stops at the change, within them") {
  std::string bytes = Grouped({{"a", "b"}, {"c"}});
  const LogContents contents = ReadLog("log", bytes).value();
  const std::vector<LogRecord> records = contents.records.All();
  REQUIRE(records.size() == 3);
  // b's length made to reach past the end, then the second group's opening length: the walk
  // stops where a record no longer fits, never reading past the bytes.
  const char length_byte = bytes[records[1].offset + 2];
  bytes[records[1].offset + 2] = static_cast<char>(0x7F);
  CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"a"});
  bytes[records[1].offset + 2] = length_byte;
  bytes[records[2].group_offset] = 2;  // an opening's payload too short to hold a length
  CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"a", "b"});
}

TEST_CASE("A torn last group is lost whole, wherever it was torn, and only it") {
  const std::string kept = Grouped({{"a"}});
  const std::string whole = Grouped({{"a"}, {"b", "c", "d"}}, 4096);
  const size_t group_end = Grouped({{"a"}, {"b", "c", "d"}}).size();
  // A hole of zeros anywhere in the last group (a page the crash did not write), the records
  // after it still readable; and the group cut at every byte.
  for (size_t at = kept.size(); at < group_end; ++at) {
    INFO("at " << at);
    std::string holed = whole;
    for (size_t i = at; i < std::min(at + 7, group_end); ++i) holed[i] = '\0';
    // (A hole over the last record's zeros alone is no damage: they were zeros already.)
    for (const std::string& bytes : {holed, whole.substr(0, at)}) {
      if (bytes == whole) continue;
      const LogContents contents = ReadLog("log", bytes).value();
      CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"a"});
      CHECK(contents.valid_bytes == kept.size());
      CHECK(contents.damaged == (bytes.size() > kept.size()));
      CHECK_FALSE(contents.readable_after());
    }
  }
  // What is reported as ignored is what the torn group held, not the zeros after it.
  std::string holed = whole;
  holed[ReadLog("log", whole).value().records.All()[1].offset + kLogRecordHeaderBytes] ^= 1;  // b's
  const LogContents contents = ReadLog("log", holed).value();
  CHECK(contents.damage == "group checksum mismatch");
  size_t written_end = group_end;  // without the zeros after the group's last record
  while (whole[written_end - 1] == '\0') --written_end;
  CHECK(contents.bytes_after == written_end - kept.size());
}

TEST_CASE("Damage with a whole group after it is refused, counting that group's records") {
  std::string bytes = Grouped({{"a"}, {"b", "c"}, {"d", "e"}}, 100);
  const LogContents clean = ReadLog("log", bytes).value();
  bytes[clean.records.All()[1].offset + kLogRecordHeaderBytes] ^= 0x20;  // b's payload
  const LogContents contents = ReadLog("log", bytes).value();
  CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"a"});
  CHECK(contents.damaged);
  CHECK(contents.damage == "group checksum mismatch");
  CHECK(contents.records_after == 2);  // d and e; c is in the damaged group
  // A record outside any group is damage too.
  std::string loose = Grouped({{"a"}});
  AppendLogRecord(loose, 1, "b");
  const LogContents outside = ReadLog("log", loose).value();
  CHECK(outside.damaged);
  CHECK(outside.damage == "record outside a group");
  CHECK(LogGroupsPayloads(outside) == std::vector<std::string>{"a"});
}

TEST_CASE("A group's checksum covers its records, whose lengths are still checked one by one") {
  // Records written with a wrong checksum of their own, in groups whose checksum is right (no
  // writer does that): the group's checksum covers their bytes, so they are read without
  // computing theirs again (a grouped segment's records were checksummed twice at every start).
  std::string records = Records({"a", "b"});
  records[8] ^= 1;  // a's checksum (after its length and the length's check)
  std::string bytes = LogHeader(kLogGrouped);
  AppendLogGroup(bytes, records);
  const LogContents read = ReadLog("log", bytes).value();
  CHECK(LogGroupsPayloads(read) == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(read.damaged);
  // A flipped byte of the group's records fails the group's checksum: the group goes.
  for (size_t at = bytes.size() - records.size(); at < bytes.size(); ++at) {
    INFO("at " << at);
    std::string flipped = bytes;
    flipped[at] ^= 0x10;
    const LogContents contents = ReadLog("log", flipped).value();
    CHECK(contents.records.empty());
    CHECK(contents.damaged);
  }
  // A record whose length runs past its group, the group's checksum right: damage, and nothing
  // of the group is kept (its first record included).
  std::string overrun = Records({"a", "bb"});
  const size_t b = Records({"a"}).size();
  // b's length made 9 (past the group's end), with the length's own check that goes with it,
  // so that only the group's bounds refuse it.
  const std::string nine = Records({"a", std::string(9, 'x')});
  for (size_t i = 0; i < 8; ++i) overrun[b + i] = nine[b + i];
  std::string grouped = Grouped({{"z"}});
  AppendLogGroup(grouped, overrun);
  AppendLogGroup(grouped, Records({"after"}));
  const LogContents contents = ReadLog("log", grouped).value();
  CHECK(LogGroupsPayloads(contents) == std::vector<std::string>{"z"});
  CHECK(contents.damaged);
  CHECK(contents.damage == "group holds a damaged record");
  CHECK(contents.records_after == 1);
}

TEST_CASE("A preallocated file grows ahead of its appends with zeros, and truncates") {
  PosixFileSystem disk;
  const std::string path = "/tmp/ddbd-prealloc-test-" + std::to_string(::getpid());
  {
    auto file = disk.OpenPreallocated(path);
    REQUIRE(file.ok());
    REQUIRE(file.value()->Append("header").ok());
    REQUIRE(file.value()->Append(std::string(3000, 'x')).ok());
    REQUIRE(file.value()->Sync().ok());
    std::string bytes = disk.ReadFile(path).value();
    CHECK(bytes.size() >= (size_t{1} << 20));
    CHECK(bytes.substr(0, 3006) == "header" + std::string(3000, 'x'));
    CHECK(bytes.find_first_not_of('\0', 3006) == std::string::npos);
    // A cut, then appends go on from it (what a failed write's retry does).
    REQUIRE(file.value()->Truncate(10).ok());
    REQUIRE(file.value()->Append("yz").ok());
    bytes = disk.ReadFile(path).value();
    CHECK(bytes.substr(0, 12) == "headerxxxxyz");
    CHECK(bytes.find_first_not_of('\0', 12) == std::string::npos);
    // Past the first megabyte: grown again.
    REQUIRE(file.value()->Append(std::string(size_t{3} << 20, 'w')).ok());
    bytes = disk.ReadFile(path).value();
    CHECK(bytes.size() > (size_t{3} << 20) + 12);
    CHECK(bytes[(size_t{3} << 20) + 11] == 'w');
    CHECK(bytes.find_first_not_of('\0', (size_t{3} << 20) + 12) == std::string::npos);
  }
  REQUIRE(disk.Remove(path).ok());
}

TEST_CASE("A log on disk under kFull is grouped, zero-padded and reads back whole") {
  PosixFileSystem disk;
  const std::string directory = "/tmp/ddbd-groups-test-" + std::to_string(::getpid());
  REQUIRE(disk.CreateDirectory(directory).ok());
  {
    auto writer = LogWriter::Open(disk, directory, 1, SyncPolicy::kFull).value();
    for (int i = 0; i < 100; ++i) writer->Append(1, "r" + std::to_string(i), {});
    REQUIRE(writer->Flush().ok());
  }
  const std::string bytes = disk.ReadFile(directory + "/" + LogSegmentName(1)).value();
  CHECK(bytes.size() >= (size_t{1} << 20));
  const LogContents contents = ReadLog("log", bytes).value();
  CHECK((contents.flags & kLogGrouped) != 0);
  CHECK_FALSE(contents.damaged);
  REQUIRE(contents.records.size() == 100);
  CHECK(contents.records.All()[99].payload == "r99");
  REQUIRE(disk.Remove(directory + "/" + LogSegmentName(1)).ok());
  ::rmdir(directory.c_str());
}

TEST_CASE("A group waits for its start, a Flush does not, and a stopping writer writes all") {
  MemoryFileSystem files;
  auto writer = LogWriter::Open(files, "db", 1, SyncPolicy::kFull).value();
  std::vector<std::function<void()>> starts;  // asked for, not yet run
  writer->SetGroupCommitStart(
      [&starts](std::function<void()> start) { starts.push_back(std::move(start)); });
  std::atomic<int> durable = 0;
  auto count = [&durable](const Status& status) {
    if (status.ok()) ++durable;
  };
  // Three records ask for one start; nothing is written before it runs.
  for (int i = 0; i < 3; ++i) writer->Append(1, "a", count);
  REQUIRE(starts.size() == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(durable == 0);
  CHECK(writer->stats().batches == 0);
  starts[0]();
  for (int i = 0; i < 2000 && durable < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(durable == 3);
  CHECK(writer->stats().batches == 1);  // one group for the three
  // The next record asks again; a Flush writes it without the start.
  writer->Append(1, "b", count);
  REQUIRE(starts.size() == 2);
  REQUIRE(writer->Flush().ok());
  CHECK(durable == 4);
  // A start that runs after its records went is harmless; one asked but never run is not needed
  // when the writer stops.
  starts[1]();
  writer->Append(1, "c", count);
  REQUIRE(starts.size() == 3);
  writer.reset();
  CHECK(durable == 5);
  starts[2]();  // after the writer is gone: reaches nothing
  files.Crash();
  const std::string bytes = files.ReadFile("db/" + LogSegmentName(1)).value();
  CHECK(LogGroupsPayloads(ReadLog("log", bytes).value()) ==
        std::vector<std::string>{"a", "a", "a", "b", "c"});
}

TEST_CASE("Records whose start ran while a group was written wait for a start after it") {
  MemoryFileSystem files;
  auto writer = LogWriter::Open(files, "db", 1, SyncPolicy::kFull).value();
  std::mutex starts_mutex;
  std::vector<std::function<void()>> starts;
  writer->SetGroupCommitStart([&](std::function<void()> start) {
    std::lock_guard lock(starts_mutex);
    starts.push_back(std::move(start));
  });
  auto start = [&](size_t i) {
    std::function<void()> run;
    {
      std::lock_guard lock(starts_mutex);
      REQUIRE(starts.size() > i);
      run = starts[i];
    }
    run();
  };
  std::atomic<int> durable = 0;
  auto count = [&durable](const Status&) { ++durable; };
  auto wait_for = [&durable](int wanted) {
    for (int i = 0; i < 5000 && durable < wanted; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return durable == wanted;
  };
  // The first group is held in its sync; a second record's start runs meanwhile.
  files.HoldSyncs(true);
  const std::string path = "db/" + LogSegmentName(1);
  const size_t header = files.ReadFile(path).value().size();
  writer->Append(1, "a", count);
  start(0);
  for (int i = 0; i < 5000 && files.ReadFile(path).value().size() == header; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(files.ReadFile(path).value().size() > header);  // written, its sync held
  writer->Append(1, "b", count);
  start(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(durable == 0);
  files.HoldSyncs(false);
  // "b" goes with no start after the first group: kGroupWait bounds its wait.
  CHECK(wait_for(2));
  CHECK(writer->stats().batches == 2);
  // Later records ask a start again, and go with it.
  writer->Append(1, "c", count);
  writer->Append(1, "d", count);
  start(2);
  CHECK(wait_for(4));
  const std::string bytes = files.ReadFile(path).value();
  CHECK(LogGroupsPayloads(ReadLog("log", bytes).value()) ==
        std::vector<std::string>{"a", "b", "c", "d"});
}

}  // namespace
}  // namespace ddbd
