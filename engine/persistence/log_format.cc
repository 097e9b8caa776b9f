#include "engine/persistence/log_format.h"

#include <isa-l/crc.h>

#include <algorithm>
#include <array>

namespace ddbd {
namespace {

constexpr std::string_view kMagic = "ddbd-log";

void PutU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void PutU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint64_t GetU64(std::string_view bytes, size_t at) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i) {
    value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)]))
             << (8 * i);
  }
  return value;
}

uint32_t GetU32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)]))
             << (8 * i);
  }
  return value;
}

uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

uint32_t Crc(std::string_view bytes, uint32_t crc) {
  return crc32_iscsi(reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data())),
                     static_cast<int>(bytes.size()), crc);
}

// CRC-32C's byte table (the reflected polynomial 0x82F63B78, as ISA-L's crc32_iscsi computes).
constexpr std::array<uint32_t, 256> kCrc32cTable = [] {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) != 0 ? 0x82F63B78u : 0u);
    table[byte] = crc;
  }
  return table;
}();

// A few bytes' CRC-32C by the table: for a record's length (four bytes) and kind (one), at every
// record read or written, a call into ISA-L, whose setup is for long buffers, cost more than this.
uint32_t CrcOfFew(std::string_view bytes, uint32_t crc) {
  for (const char c : bytes) {
    crc = (crc >> 8) ^ kCrc32cTable[(crc ^ static_cast<uint8_t>(c)) & 0xFFu];
  }
  return crc;
}

bool AllZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

// One record at `at`: its end, or why it cannot be read.
struct Parsed {
  bool ok = false;
  size_t end = 0;  // with !ok: where a record that fails only its checksum would end (v1's rule)
  const char* what = "";
};

// Where a record's parts sit, by format version (log_format.h).
struct RecordLayout {
  size_t header_bytes;
  size_t crc_at;  // the payload's checksum
  size_t kind_at;
  bool length_checked;  // version 2 on: the length's own check follows it
  bool padded;          // version 7: zeros follow up to a multiple of 4 bytes
};
constexpr RecordLayout kV1Layout{kLogV1RecordHeaderBytes, 4, 8, false, false};
constexpr RecordLayout kV2Layout{kLogRecordHeaderBytes, 8, 12, true, false};
constexpr RecordLayout kV7Layout{kLogRecordHeaderBytes, 8, 12, true, true};

// Zeros after a record of `length` payload bytes, in version 7.
size_t PaddingAfter(size_t length) { return (0 - (kLogRecordHeaderBytes + length)) & 3; }

// `in_checked_group`: the record lies in a group whose checksum held, which covers its bytes
// already; its own checksum is not computed again (a grouped segment's records were read twice).
Parsed Parse(std::string_view bytes, size_t at, const RecordLayout& layout,
             bool in_checked_group = false) {
  if (bytes.size() - at < layout.header_bytes) return {false, bytes.size(), "record cut short"};
  if (layout.length_checked && LengthCheck(bytes.substr(at, 4)) != GetU32(bytes, at + 4)) {
    return {false, bytes.size(), "record length damaged"};
  }
  const uint32_t length = GetU32(bytes, at);
  if (length > kMaxLogPayloadBytes) {
    return {false, at + layout.header_bytes, "record length too large"};
  }
  // A record ends after its zeros (version 7): a file that ends among them was cut short.
  const size_t end = at + layout.header_bytes + length + (layout.padded ? PaddingAfter(length) : 0);
  if (end > bytes.size()) return {false, bytes.size(), "record cut short"};
  const auto kind = static_cast<uint8_t>(bytes[at + layout.kind_at]);
  if (!in_checked_group && MaskedCrc32c(kind, bytes.substr(at + layout.header_bytes, length)) !=
                               GetU32(bytes, at + layout.crc_at)) {
    return {false, end, "record checksum mismatch"};
  }
  return {true, end, ""};
}

LogRecord RecordAt(std::string_view bytes, size_t at, const RecordLayout& layout) {
  return {static_cast<uint8_t>(bytes[at + layout.kind_at]),
          bytes.substr(at + layout.header_bytes, GetU32(bytes, at)), at, at};
}

// Version 2: the records that can be read after damage at `from`, found by their checks (a
// false match needs a 32-bit length check and a 32-bit payload checksum to pass by chance).
size_t CountReadableAfter(std::string_view bytes, size_t from, const RecordLayout& layout) {
  size_t count = 0;
  size_t at = from;
  while (at + kLogRecordHeaderBytes <= bytes.size()) {
    const Parsed parsed = Parse(bytes, at, layout);
    if (parsed.ok) {
      ++count;
      at = parsed.end;
    } else {
      ++at;
    }
  }
  return count;
}

// A group (kLogGrouped) at `at`: where its records start and where it ends, or why it cannot be
// read.
struct ParsedGroup {
  bool ok = false;
  size_t records_at = 0;
  size_t end = 0;
  const char* what = "";
};

ParsedGroup ParseGroup(std::string_view bytes, size_t at, const RecordLayout& layout) {
  const Parsed opening = Parse(bytes, at, layout);
  if (!opening.ok) return {false, 0, 0, opening.what};
  const LogRecord record = RecordAt(bytes, at, layout);
  if (record.kind != kLogGroupKind || record.payload.size() != 8) {
    return {false, 0, 0, "record outside a group"};
  }
  const size_t end = opening.end + GetU32(record.payload, 0);
  if (end > bytes.size()) return {false, 0, 0, "group cut short"};
  const std::string_view records = bytes.substr(opening.end, end - opening.end);
  if (MaskedCrc32c(kLogGroupKind, records) != GetU32(record.payload, 4)) {
    return {false, 0, 0, "group checksum mismatch"};
  }
  return {true, opening.end, end, ""};
}

// The records of the whole groups that can be read after damage at `from`, found by their
// checks; a torn group's own records do not count (they were never acknowledged).
size_t CountGroupedAfter(std::string_view bytes, size_t from, const RecordLayout& layout) {
  size_t count = 0;
  size_t at = from;
  while (at + kLogRecordHeaderBytes <= bytes.size()) {
    const ParsedGroup group = ParseGroup(bytes, at, layout);
    if (!group.ok) {
      ++at;
      continue;
    }
    for (size_t record = group.records_at; record < group.end;) {
      const Parsed parsed = Parse(bytes, record, layout, /*in_checked_group=*/true);
      if (!parsed.ok) break;
      ++count;
      record = parsed.end;
    }
    at = group.end;
  }
  return count;
}

// From `at` to just past the last non-zero byte: what damage there holds, without the room the
// writer grew the file by.
size_t WrittenBytesFrom(std::string_view bytes, size_t at) {
  size_t end = bytes.size();
  while (end > at && bytes[end - 1] == 0) --end;
  return end - at;
}

// A grouped segment's records from `at` (after the header) on, into `contents`: how many.
size_t ReadGroups(std::string_view bytes, size_t at, const RecordLayout& layout,
                  LogContents& contents) {
  auto damaged = [&](size_t where, const char* what) {
    contents.damaged = true;
    contents.damage = what;
    contents.bytes_after = WrittenBytesFrom(bytes, where);
    contents.records_after = CountGroupedAfter(bytes, where + 1, layout);
  };
  size_t count = 0;
  while (at < bytes.size()) {
    const ParsedGroup group = ParseGroup(bytes, at, layout);
    if (!group.ok) {
      // Only zeros left: the end, not damage.
      if (AllZero(bytes.substr(at))) return count;
      damaged(at, group.what);
      return count;
    }
    // The group's checksum held, so its records read (a record that does not is damage all the
    // same, reported at the group).
    size_t in_group = 0;
    for (size_t record = group.records_at; record < group.end;) {
      const Parsed parsed = Parse(bytes, record, layout, /*in_checked_group=*/true);
      if (!parsed.ok || parsed.end > group.end) {
        damaged(at, "group holds a damaged record");  // the group goes whole
        return count;
      }
      ++in_group;
      record = parsed.end;
    }
    count += in_group;
    at = group.end;
    contents.valid_bytes = at;
  }
  return count;
}

Error Corrupt(std::string_view file_name, uint64_t offset, std::string_view what) {
  return Error::Internal(std::string(file_name) + ": " + std::string(what) + " at offset " +
                         std::to_string(offset));
}

}  // namespace

uint32_t LengthCheck(std::string_view length_bytes) {
  return Mask(CrcOfFew(length_bytes, 0xFFFFFFFFu));
}

uint32_t MaskedCrc32c(uint8_t kind, std::string_view payload) {
  const char kind_byte = static_cast<char>(kind);
  return Mask(Crc(payload, CrcOfFew(std::string_view(&kind_byte, 1), 0xFFFFFFFFu)));
}

std::string LogHeader(uint32_t flags, PreviousSegment previous) {
  std::string header(kMagic);
  PutU32(header, kLogFormatVersion);
  PutU32(header, flags);
  PutU64(header, previous.number);
  PutU64(header, previous.bytes);
  return header;
}

std::string LogV1Header() {
  std::string header(kMagic);
  PutU32(header, 1);
  PutU32(header, 0);
  return header;
}

void AppendLogRecord(std::string& out, uint8_t kind, std::string_view payload) {
  const size_t at = out.size();
  PutU32(out, static_cast<uint32_t>(payload.size()));
  PutU32(out, LengthCheck(std::string_view(out).substr(at, 4)));
  PutU32(out, MaskedCrc32c(kind, payload));
  out.push_back(static_cast<char>(kind));
  out.append(payload);
  out.append(PaddingAfter(payload.size()), '\0');
}

void AppendLogGroup(std::string& out, std::string_view records) {
  std::string opening;
  PutU32(opening, static_cast<uint32_t>(records.size()));
  PutU32(opening, MaskedCrc32c(kLogGroupKind, records));
  AppendLogRecord(out, kLogGroupKind, opening);
  out.append(records);
}

void AppendLogV1Record(std::string& out, uint8_t kind, std::string_view payload) {
  PutU32(out, static_cast<uint32_t>(payload.size()));
  PutU32(out, MaskedCrc32c(kind, payload));
  out.push_back(static_cast<char>(kind));
  out.append(payload);
}

Result<LogContents> ReadLog(std::string_view file_name, std::string_view bytes) {
  LogContents contents;
  // A crash (or a failed write) while the header itself was written: a segment that never held
  // a record.
  auto unfinished_header = [&]() -> Result<LogContents> {
    contents.empty = true;
    return contents;
  };
  const size_t magic_bytes = std::min(bytes.size(), kMagic.size());
  if (bytes.substr(0, magic_bytes) != kMagic.substr(0, magic_bytes)) {
    return Corrupt(file_name, 0, "not a ddbd log");
  }
  if (bytes.size() < kMagic.size() + 4) return unfinished_header();
  const uint32_t version = GetU32(bytes, kMagic.size());
  if (version != 1 && version != 2 && version != kLogFormatVersion) {
    return Error::Internal(
        std::string(file_name) + ": log format version " + std::to_string(version) +
        " at offset 8 is not one this ddbd reads (1, 2 or " + std::to_string(kLogFormatVersion) +
        "): written by a newer ddbd, or damaged");
  }
  const size_t header_bytes = version == 1 ? kLogV1HeaderBytes : kLogHeaderBytes;
  const RecordLayout& layout = version == 1 ? kV1Layout : version == 2 ? kV2Layout : kV7Layout;
  if (bytes.size() < header_bytes) return unfinished_header();
  contents.version = version;
  contents.flags = GetU32(bytes, kMagic.size() + 4);
  if (version >= 2) contents.previous = {GetU64(bytes, 16), GetU64(bytes, 24)};
  size_t at = header_bytes;
  contents.valid_bytes = at;
  const bool grouped = version >= 2 && (contents.flags & kLogGrouped) != 0;
  // The records are walked again from the bytes (LogRecords), up to valid_bytes, once read.
  size_t count = 0;
  auto read = [&]() -> Result<LogContents> {
    LogRecords& records = contents.records;
    records.count_ = count;
    records.bytes_ = bytes;
    records.first_ = header_bytes;
    records.end_ = contents.valid_bytes;
    records.header_bytes_ = static_cast<uint8_t>(layout.header_bytes);
    records.kind_at_ = static_cast<uint8_t>(layout.kind_at);
    records.padded_ = layout.padded;
    records.grouped_ = grouped;
    return std::move(contents);
  };
  if (grouped) {
    count = ReadGroups(bytes, at, layout, contents);
    return read();
  }
  while (at < bytes.size()) {
    const Parsed parsed = Parse(bytes, at, layout);
    if (!parsed.ok) {
      contents.damaged = true;
      contents.damage = parsed.what;
      contents.bytes_after = bytes.size() - at;
      if (version == 1) {
        // Version 1 cannot find records past damage: non-zero bytes after a record that fails
        // its checksum (or claims an impossible length) count as one.
        const bool more = parsed.end < bytes.size() && !AllZero(bytes.substr(parsed.end));
        contents.records_after = more ? 1 : 0;
      } else {
        contents.records_after = CountReadableAfter(bytes, at + 1, layout);
      }
      break;
    }
    ++count;
    at = parsed.end;
    contents.valid_bytes = at;
  }
  return read();
}

LogRecords::Iterator::Iterator(const LogRecords* records, size_t at)
    : records_(records), at_(at), group_end_(records->first_) {
  SkipOpenings();
}

void LogRecords::Iterator::SkipOpenings() {
  // A group's opening record starts where the group before it ended; its payload's first four
  // bytes are the length of the records after it.
  while (records_->grouped_ && at_ == group_end_ && InBounds()) {
    if (GetU32(records_->bytes_, at_) < 4) break;  // no length: not an opening (see InBounds)
    const size_t records_at = RecordEnd();
    group_offset_ = at_;
    group_end_ = records_at + GetU32(records_->bytes_, at_ + records_->header_bytes_);
    at_ = records_at;
  }
  if (!InBounds() || (records_->grouped_ && at_ == group_end_)) at_ = records_->end_;
}

bool LogRecords::Iterator::InBounds() const {
  // ReadLog checked every record up to end_; this holds unless the bytes changed since (a file
  // written by something else while mapped), where the walk stops rather than read past them.
  const size_t end = records_->end_;
  return at_ < end && end - at_ >= records_->header_bytes_ && RecordEnd() <= end;
}

size_t LogRecords::Iterator::RecordEnd() const {
  const size_t length = GetU32(records_->bytes_, at_);
  return at_ + records_->header_bytes_ + length + (records_->padded_ ? PaddingAfter(length) : 0);
}

LogRecord LogRecords::Iterator::operator*() const {
  const std::string_view bytes = records_->bytes_;
  return {static_cast<uint8_t>(bytes[at_ + records_->kind_at_]),
          bytes.substr(at_ + records_->header_bytes_, GetU32(bytes, at_)), at_,
          records_->grouped_ ? group_offset_ : at_};
}

LogRecords::Iterator& LogRecords::Iterator::operator++() {
  at_ = RecordEnd();
  SkipOpenings();
  return *this;
}

std::vector<LogRecord> LogRecords::All() const {
  std::vector<LogRecord> all;
  all.reserve(count_);
  for (const LogRecord& record : *this) all.push_back(record);
  return all;
}

}  // namespace ddbd
