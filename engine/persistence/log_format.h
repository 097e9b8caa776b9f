// The write-ahead log's file format: what a segment holds and how a reader tells a torn final
// record (a crash mid-write: ignored) from corruption in the middle (refused, never skipped).
//
// A segment starts with a 16-byte header: "ddbd-log", the format version (u32, little-endian)
// and 4 reserved bytes. Then records, each
//   u32 payload length | u32 masked CRC-32C of (kind, payload) | u8 kind | payload
// (little-endian). Kinds are the engine's to define; a later feature adds kinds, not a format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

inline constexpr uint32_t kLogFormatVersion = 1;
inline constexpr size_t kLogHeaderBytes = 16;
inline constexpr size_t kLogRecordHeaderBytes = 9;
// A record's payload is at most this long (an item is at most 400 KB; a catalog record small).
inline constexpr uint32_t kMaxLogPayloadBytes = 64u << 20;

std::string LogHeader();
// Appends one record to `out`.
void AppendLogRecord(std::string& out, uint8_t kind, std::string_view payload);

struct LogRecord {
  uint8_t kind = 0;
  std::string_view payload;  // a view into the bytes read
  uint64_t offset = 0;       // of the record's header in the file
};

struct LogContents {
  std::vector<LogRecord> records;
  // Bytes of the file up to the end of the last good record; a writer continuing the segment
  // cuts it there first.
  size_t valid_bytes = 0;
  bool torn_tail = false;  // a final record was cut short by a crash, and is ignored
};

// Reads a whole segment. A final record cut short, failing its checksum at the very end, or
// followed only by zero bytes is a torn tail. InternalServerError, naming `file_name` and the
// offset, for a file that is not a ddbd log, a newer format version, or a bad record with good
// data after it.
Result<LogContents> ReadLog(std::string_view file_name, std::string_view bytes);

// CRC-32C (Castagnoli), as the log stores it: masked, so a CRC of bytes that hold CRCs is not
// itself trivially predictable.
uint32_t MaskedCrc32c(uint8_t kind, std::string_view payload);

}  // namespace ddbd
