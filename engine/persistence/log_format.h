// The write-ahead log's file format: what a segment holds, and what a reader finds in it, so that
// recovery can tell a write a crash cut short (at the end of the newest segment: dropped) from
// damage (anywhere else, or with readable records after it: never skipped silently).
//
// A segment starts with a 32-byte header: "ddbd-log", the format version (u32, little-endian),
// flags (u32), and the number (u64) and length (u64) of the segment the writer wrote before it
// (0, 0: none), so recovery finds an older segment cut short at a record boundary or missing
// altogether. Records are
//   u32 payload length | u32 masked CRC-32C of the length | u32 masked CRC-32C of (kind, payload)
//   | u8 kind | payload | zeros up to a multiple of 4 bytes
// (little-endian): the length has a check of its own, so a damaged length is told from a record
// cut short, and a reader can find the records after a damaged one. The zeros (version 7; a
// record's CRC does not cover them, a group's does) start every record at a file offset that
// is a multiple of 4, so a payload can hold an item's record as memory keeps it, aligned, which
// recovery uses where it lies in the mapped file (journal_records.h, kItemPutNumbered).
// Still read: version 2 (the same without the zeros) and version 1 (ddbd 0.1.0: no length
// check, u32 length | u32 CRC | u8 kind | payload, and a 16-byte header without the previous
// segment). Kinds are the engine's to define; a later feature adds kinds, not a format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// Versions are at least two bits apart (1, 2, 7): one flipped bit of a header never reads as
// another version, whose records would be read wrong (3, 5 and 6 are a bit from 1 or 2).
inline constexpr uint32_t kLogFormatVersion = 7;
inline constexpr size_t kLogHeaderBytes = 32;         // versions 2 and 7
inline constexpr size_t kLogV1HeaderBytes = 16;       // version 1
inline constexpr size_t kLogRecordHeaderBytes = 13;   // versions 2 and 7
inline constexpr size_t kLogV1RecordHeaderBytes = 9;  // version 1
// A record's payload is at most this long (an item is at most 400 KB; a catalog record small).
inline constexpr uint32_t kMaxLogPayloadBytes = 64u << 20;

// Header flags. The segment written before this one may end in a torn write: a crash cut it
// short (recovery found the tail and started this one), or a failed write could not be cut off.
inline constexpr uint32_t kLogPreviousMayBeTorn = 1;
// A checkpoint: the whole state, replacing every segment numbered below it.
inline constexpr uint32_t kLogCheckpoint = 2;
// The records come in groups (log segments written since this flag, by LogWriter), each written,
// and under --sync full synced, as one write: a record of kind kLogGroupKind whose payload is the
// length (u32) and masked CRC-32C (u32, as MaskedCrc32c(kLogGroupKind, ...)) of the records that
// follow in the group, then those records. Only zeros may follow the last group: room the writer
// grew the file by ahead of its writes. Since a group is written only once the one before it is
// durable, a crash can damage only the last group: damage with no whole group after it is a
// write the crash cut short, wherever in the group the damage lies.
inline constexpr uint32_t kLogGrouped = 4;
// The kind of a group's opening record (kLogGrouped); the engine's kinds stay below it.
inline constexpr uint8_t kLogGroupKind = 0xFF;

// The segment written before this one, as its header names it.
struct PreviousSegment {
  uint64_t number = 0;  // 0: none (the first segment, or a checkpoint)
  uint64_t bytes = 0;   // its length up to its last good record, when this one started
};

std::string LogHeader(uint32_t flags = 0, PreviousSegment previous = {});
// Version 1's header (ddbd 0.1.0), for tests of what it wrote.
std::string LogV1Header();
// Appends one record to `out` (the current version).
void AppendLogRecord(std::string& out, uint8_t kind, std::string_view payload);
// Appends `records` (AppendLogRecord's) to `out` as one group (kLogGrouped).
void AppendLogGroup(std::string& out, std::string_view records);
// Version 1's record, for tests of what ddbd 0.1.0 wrote.
void AppendLogV1Record(std::string& out, uint8_t kind, std::string_view payload);

struct LogRecord {
  uint8_t kind = 0;
  std::string_view payload;   // a view into the bytes read
  uint64_t offset = 0;        // of the record's header in the file
  uint64_t group_offset = 0;  // of its group's opening record (kLogGrouped), else `offset`
};

struct LogContents;

// The records ReadLog found, walked again from the bytes on each iteration: ReadLog checked
// them, so the walk only follows their lengths (and steps over groups' opening records). A
// checkpoint holds millions; a vector of them cost 40 bytes a record (400 MB of fresh pages at
// 10M items, ~10% of such a start).
class LogRecords {
 public:
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = LogRecord;
    using difference_type = std::ptrdiff_t;
    using reference = LogRecord;
    using pointer = void;
    Iterator() = default;
    LogRecord operator*() const;
    Iterator& operator++();
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    friend class LogRecords;
    Iterator(const LogRecords* records, size_t at);
    // From at_ on, past any group's opening record, to the next record (or the end).
    void SkipOpenings();
    size_t RecordEnd() const;  // of the record at at_, after its zeros
    bool InBounds() const;     // a whole record (and an opening's length) lies at at_
    const LogRecords* records_ = nullptr;
    size_t at_ = 0;  // the current record's offset; records_->end_ at the end
    size_t group_end_ = 0;
    size_t group_offset_ = 0;
  };

  Iterator begin() const { return Iterator(this, first_); }
  Iterator end() const { return Iterator(this, end_); }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  LogRecord front() const { return *begin(); }  // with !empty()
  // Every record at once, for files of a few (exports, tests).
  std::vector<LogRecord> All() const;

 private:
  friend Result<LogContents> ReadLog(std::string_view file_name, std::string_view bytes);
  std::string_view bytes_;
  size_t first_ = 0;  // after the segment's header
  size_t end_ = 0;    // the end of the last good record (or group)
  size_t count_ = 0;
  uint8_t header_bytes_ = 0;
  uint8_t kind_at_ = 0;
  bool padded_ = false;
  bool grouped_ = false;
};

struct LogContents {
  uint32_t version = 0;
  uint32_t flags = 0;
  PreviousSegment previous;
  // The file holds at most part of a header: nothing was ever written to it.
  bool empty = false;
  // The records before the first unreadable byte, in order (views into the bytes read).
  LogRecords records;
  // Bytes up to the end of the last good record before any damage.
  size_t valid_bytes = 0;
  // Something unreadable follows valid_bytes: a record cut short, a damaged length, a checksum
  // that fails, or bytes that are no record.
  bool damaged = false;
  std::string damage;  // what it is, e.g. "record checksum mismatch"
  // Readable records after the damage (versions 2 and 7 find them by their checks, in a grouped
  // segment only those of whole groups; version 1 cannot, and reports one when any non-zero byte
  // follows a record that fails its checksum), and their bytes: what skipping the damage would
  // lose.
  size_t records_after = 0;
  // From valid_bytes to the end of the file (a grouped segment's: to its last non-zero byte).
  size_t bytes_after = 0;
  bool readable_after() const { return records_after > 0; }
};

// Reads a whole segment. InternalServerError, naming `file_name`, for a file that is not a ddbd
// log or a newer format version; damage is reported in the contents, for recovery to judge.
Result<LogContents> ReadLog(std::string_view file_name, std::string_view bytes);

// CRC-32C (Castagnoli), as the log stores it: masked, so a CRC of bytes that hold CRCs is not
// itself trivially predictable.
uint32_t MaskedCrc32c(uint8_t kind, std::string_view payload);
// A record's length check (version 2 on): the masked CRC-32C of its four length bytes.
uint32_t LengthCheck(std::string_view length_bytes);

}  // namespace ddbd
