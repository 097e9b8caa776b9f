// The write-ahead log's format with an in-memory file system: records come back as written; a
// crash that tears the last record at any byte loses that record only; corruption in the middle,
// a foreign file and a newer version are refused with the file and offset; the lock is exclusive;
// a full disk fails the append.
#include "engine/persistence/log_format.h"

#include <isa-l/crc.h>

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "engine/persistence/file_system.h"

namespace ddbd {
namespace {

std::string Segment(const std::vector<std::string>& payloads) {
  std::string bytes = LogHeader();
  uint8_t kind = 1;
  for (const std::string& payload : payloads) AppendLogRecord(bytes, kind++, payload);
  return bytes;
}

std::vector<std::string> Payloads(const LogContents& contents) {
  std::vector<std::string> payloads;
  for (const LogRecord& record : contents.records) payloads.emplace_back(record.payload);
  return payloads;
}

TEST_CASE("Log records come back as written, with their kinds and offsets") {
  const std::vector<std::string> payloads = {"first", "", std::string(100'000, 'x'), "last"};
  const std::string bytes = Segment(payloads);
  auto read = ReadLog("000001.log", bytes);
  REQUIRE(read.ok());
  CHECK(Payloads(read.value()) == payloads);
  CHECK(read.value().version == kLogFormatVersion);
  CHECK(read.value().records.All()[1].kind == 2);
  CHECK(read.value().records.All()[0].offset == kLogHeaderBytes);
  CHECK(read.value().valid_bytes == bytes.size());
  CHECK_FALSE(read.value().damaged);
  // The header's flags and the segment it names as the one before it.
  const std::string flagged = LogHeader(kLogCheckpoint | kLogPreviousMayBeTorn, {41, 123456789});
  auto header = ReadLog("x", flagged);
  REQUIRE(header.ok());
  CHECK(header.value().flags == (kLogCheckpoint | kLogPreviousMayBeTorn));
  CHECK(header.value().previous.number == 41);
  CHECK(header.value().previous.bytes == 123456789);
}

// The checks that versions 2 on wrote with ISA-L's CRC-32C: the table the reader and writer use
// now for a record's few header bytes gives the same values, so older segments still read.
TEST_CASE("A record's length check and checksum are ISA-L's CRC-32C, as older versions wrote") {
  const auto isal = [](std::string_view bytes, uint32_t crc) {
    return crc32_iscsi(reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data())),
                       static_cast<int>(bytes.size()), crc);
  };
  const auto masked = [](uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; };
  std::mt19937_64 random(7);
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t bits = random();
    std::string length(4, '\0');
    for (size_t b = 0; b < 4; ++b) length[b] = static_cast<char>((bits >> (8 * b)) & 0xFF);
    INFO("length bytes " << (bits & 0xFFFFFFFFu));
    REQUIRE(LengthCheck(length) == masked(isal(length, 0xFFFFFFFFu)));
    const auto kind = static_cast<uint8_t>(bits >> 32);
    const std::string payload(static_cast<size_t>((bits >> 40) % 300),
                              static_cast<char>(bits >> 56));
    const char kind_byte = static_cast<char>(kind);
    REQUIRE(MaskedCrc32c(kind, payload) ==
            masked(isal(payload, isal(std::string_view(&kind_byte, 1), 0xFFFFFFFFu))));
  }
  // A record as written: its header's second word checks its first.
  std::string record;
  AppendLogRecord(record, 3, std::string(70'000, 'p'));
  CHECK(LengthCheck(std::string_view(record).substr(0, 4)) ==
        masked(isal(std::string_view(record).substr(0, 4), 0xFFFFFFFFu)));
}

TEST_CASE("A crash tearing the last record at any byte loses that record only") {
  const std::string whole = Segment({"alpha", "beta", "the last record"});
  auto read = ReadLog("log", whole);
  REQUIRE(read.ok());
  const size_t last_start = read.value().records.All().back().offset;
  for (size_t cut = last_start; cut < whole.size(); ++cut) {
    INFO("cut at " << cut);
    const std::string cut_short = whole.substr(0, cut);  // the records are views into it
    auto torn = ReadLog("log", cut_short);
    REQUIRE(torn.ok());
    CHECK(Payloads(torn.value()) == std::vector<std::string>{"alpha", "beta"});
    CHECK(torn.value().valid_bytes == last_start);
    CHECK(torn.value().damaged == (cut > last_start));
    CHECK_FALSE(torn.value().readable_after());
  }
  // The tail's bytes written but wrong (the page never reached the disk), or zero-filled.
  std::string garbled = whole;
  garbled.back() ^= 0x55;
  auto garbled_tail = ReadLog("log", garbled);
  REQUIRE(garbled_tail.ok());
  CHECK(Payloads(garbled_tail.value()).size() == 2);
  CHECK(garbled_tail.value().damage == "record checksum mismatch");
  CHECK_FALSE(garbled_tail.value().readable_after());
  std::string zeroed = whole.substr(0, last_start) + std::string(64, '\0');
  auto zero_tail = ReadLog("log", zeroed);
  REQUIRE(zero_tail.ok());
  CHECK(zero_tail.value().damaged);
  CHECK_FALSE(zero_tail.value().readable_after());
  CHECK(Payloads(zero_tail.value()).size() == 2);
  // A header torn before any record: an empty segment.
  for (size_t cut = 0; cut < kLogHeaderBytes; ++cut) {
    const std::string header_cut = whole.substr(0, cut);
    auto early = ReadLog("log", header_cut);
    REQUIRE(early.ok());
    CHECK(early.value().records.empty());
    CHECK(early.value().empty);
  }
}

TEST_CASE("Damage before good records is told apart from a torn tail, lengths included") {
  // Issue 34: a flipped bit in a length field made the rest look like a torn tail.
  std::string bytes = Segment({"alpha", "beta", "gamma", "delta"});
  const LogContents whole = ReadLog("log", bytes).value();
  const uint64_t second = whole.records.All()[1].offset;
  for (size_t byte = 0; byte < kLogRecordHeaderBytes + 4; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      INFO("byte " << byte << " bit " << bit);
      std::string flipped = bytes;
      flipped[second + byte] = static_cast<char>(flipped[second + byte] ^ (1 << bit));
      auto read = ReadLog("000007.log", flipped);
      REQUIRE(read.ok());
      CHECK(read.value().damaged);
      CHECK(read.value().valid_bytes == second);
      CHECK(Payloads(read.value()) == std::vector<std::string>{"alpha"});
      CHECK(read.value().records_after == 2);  // gamma and delta, found past the damage
      CHECK(read.value().bytes_after == bytes.size() - second);
    }
  }
  std::string long_length = Segment({"alpha", "beta"});
  long_length[kLogHeaderBytes + 3] = '\x7f';  // the first record claims 2 GB
  auto read = ReadLog("log", long_length);
  REQUIRE(read.ok());
  CHECK(read.value().damage == "record length damaged");
  CHECK(read.value().records_after == 1);
}

TEST_CASE("Version 1 segments (ddbd 0.1.0) are still read") {
  std::string bytes = LogV1Header();
  AppendLogV1Record(bytes, 4, "alpha");
  AppendLogV1Record(bytes, 5, "beta");
  auto read = ReadLog("old.log", bytes);
  REQUIRE(read.ok());
  CHECK(read.value().version == 1);
  CHECK(Payloads(read.value()) == std::vector<std::string>{"alpha", "beta"});
  CHECK(read.value().records.All()[1].kind == 5);
  CHECK(read.value().previous.number == 0);
  // Its damage: a checksum failing before non-zero bytes is readable data after.
  const uint64_t first = read.value().records.All()[0].offset;
  std::string flipped = bytes;
  flipped[first + kLogV1RecordHeaderBytes] ^= 1;
  CHECK(ReadLog("old.log", flipped).value().readable_after());
  CHECK_FALSE(ReadLog("old.log", bytes.substr(0, bytes.size() - 1)).value().readable_after());
}

TEST_CASE("A foreign file or a newer format version is refused") {
  CHECK(ReadLog("x.log", "SQLite format 3\0 and more").error().message() ==
        "x.log: not a ddbd log at offset 0");
  std::string newer = Segment({"a"});
  for (const int version : {3, 8}) {
    newer[8] = static_cast<char>(version);
    CHECK(ReadLog("x.log", newer).error().message() ==
          "x.log: log format version " + std::to_string(version) +
              " at offset 8 is not one this ddbd reads (1, 2 or 7): written by a newer ddbd, or "
              "damaged");
  }
}

TEST_CASE("The in-memory file system keeps synced bytes through a crash, tears the rest") {
  MemoryFileSystem files;
  auto file = files.OpenAppendable("db/000001.log");
  REQUIRE(file.ok());
  REQUIRE(file.value()->Append("synced").ok());
  REQUIRE(file.value()->Sync().ok());
  REQUIRE(file.value()->Append("-pending").ok());
  files.Crash(3);
  CHECK(files.ReadFile("db/000001.log").value() == "synced-pe");
  CHECK(files.List("db").value() == std::vector<std::string>{"000001.log"});
  files.SetSpaceLimit(12);
  auto again = files.OpenAppendable("db/000001.log");
  CHECK(again.value()->Append("abc").ok());
  auto full = again.value()->Append("d");
  REQUIRE_FALSE(full.ok());
  CHECK(full.error().message() == "cannot write db/000001.log: No space left on device");
}

TEST_CASE("A directory's lock is exclusive, in memory and on disk") {
  MemoryFileSystem memory;
  PosixFileSystem disk;
  const std::string directory = "/tmp/ddbd-lock-test-" + std::to_string(::getpid());
  REQUIRE(disk.CreateDirectory(directory).ok());
  for (FileSystem* files : {static_cast<FileSystem*>(&memory), static_cast<FileSystem*>(&disk)}) {
    const std::string path = directory + "/LOCK";
    auto first = files->Lock(path);
    REQUIRE(first.ok());
    auto second = files->Lock(path);
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().message() == path + " is locked by another process");
    first.value().reset();
    CHECK(files->Lock(path).ok());
  }
  // Appends, sync, read back and rename on the real file system.
  auto file = disk.OpenAppendable(directory + "/a.log");
  REQUIRE(file.ok());
  REQUIRE(file.value()->Append(LogHeader()).ok());
  REQUIRE(file.value()->Sync().ok());
  REQUIRE(disk.Rename(directory + "/a.log", directory + "/b.log").ok());
  CHECK(disk.ReadFile(directory + "/b.log").value() == LogHeader());
  CHECK(disk.Map(directory + "/b.log").value()->bytes() == LogHeader());  // mapped
  REQUIRE(memory.OpenAppendable("m.log").value()->Append("bytes").ok());
  CHECK(memory.Map("m.log").value()->bytes() == "bytes");  // copied
  REQUIRE(disk.OpenAppendable(directory + "/empty.log").ok());
  CHECK(disk.Map(directory + "/empty.log").value()->bytes().empty());  // nothing to map
  REQUIRE(disk.Remove(directory + "/empty.log").ok());
  CHECK_FALSE(disk.Map(directory + "/missing.log").ok());
  CHECK(disk.List(directory).value() == std::vector<std::string>{"LOCK", "b.log"});
  REQUIRE(disk.Remove(directory + "/b.log").ok());
  REQUIRE(disk.Remove(directory + "/LOCK").ok());
  CHECK(disk.ReadFile(directory + "/b.log").error().code() == ErrorCode::kInternalServerError);
  ::rmdir(directory.c_str());
}

}  // namespace
}  // namespace ddbd
