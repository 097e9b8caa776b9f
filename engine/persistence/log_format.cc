#include "engine/persistence/log_format.h"

#include <isa-l/crc.h>

#include <algorithm>

namespace ddbd {
namespace {

constexpr std::string_view kMagic = "ddbd-log";

void PutU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint32_t GetU32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) {
    value |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + static_cast<size_t>(i)]))
             << (8 * i);
  }
  return value;
}

Error Corrupt(std::string_view file_name, uint64_t offset, std::string_view what) {
  return Error::Internal(std::string(file_name) + ": " + std::string(what) + " at offset " +
                         std::to_string(offset));
}

bool AllZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

}  // namespace

uint32_t MaskedCrc32c(uint8_t kind, std::string_view payload) {
  uint32_t crc = crc32_iscsi(&kind, 1, 0xFFFFFFFFu);
  crc = crc32_iscsi(reinterpret_cast<unsigned char*>(const_cast<char*>(payload.data())),
                    static_cast<int>(payload.size()), crc);
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::string LogHeader() {
  std::string header(kMagic);
  PutU32(header, kLogFormatVersion);
  PutU32(header, 0);
  return header;
}

void AppendLogRecord(std::string& out, uint8_t kind, std::string_view payload) {
  PutU32(out, static_cast<uint32_t>(payload.size()));
  PutU32(out, MaskedCrc32c(kind, payload));
  out.push_back(static_cast<char>(kind));
  out.append(payload);
}

Result<LogContents> ReadLog(std::string_view file_name, std::string_view bytes) {
  LogContents contents;
  if (bytes.size() < kLogHeaderBytes) {
    // A crash while the header itself was written: an empty segment.
    if (kMagic.starts_with(bytes.substr(0, std::min(bytes.size(), kMagic.size())))) {
      contents.torn_tail = !bytes.empty();
      return contents;
    }
    return Corrupt(file_name, 0, "not a ddbd log");
  }
  if (bytes.substr(0, kMagic.size()) != kMagic) return Corrupt(file_name, 0, "not a ddbd log");
  const uint32_t version = GetU32(bytes, kMagic.size());
  if (version != kLogFormatVersion) {
    return Error::Internal(std::string(file_name) + ": log format version " +
                           std::to_string(version) + " is not one this ddbd reads (" +
                           std::to_string(kLogFormatVersion) + ")");
  }
  size_t at = kLogHeaderBytes;
  contents.valid_bytes = at;
  while (at < bytes.size()) {
    const std::string_view rest = bytes.substr(at);
    // A record that does not fit, or a bad one with nothing but zeros after it, is the torn
    // end of the last write; anything else bad is corruption.
    auto torn_or_corrupt = [&](size_t record_end, std::string_view what) -> Status {
      if (record_end >= bytes.size() || AllZero(bytes.substr(record_end))) {
        contents.torn_tail = true;
        return Ok{};
      }
      return Corrupt(file_name, at, what);
    };
    if (rest.size() < kLogRecordHeaderBytes) {
      contents.torn_tail = true;
      break;
    }
    const uint32_t length = GetU32(bytes, at);
    const uint32_t crc = GetU32(bytes, at + 4);
    const auto kind = static_cast<uint8_t>(bytes[at + 8]);
    if (length > kMaxLogPayloadBytes) {
      if (Status status = torn_or_corrupt(at + kLogRecordHeaderBytes, "record length too large");
          !status.ok()) {
        return status.error();
      }
      break;
    }
    const size_t end = at + kLogRecordHeaderBytes + length;
    if (end > bytes.size()) {
      contents.torn_tail = true;
      break;
    }
    const std::string_view payload = bytes.substr(at + kLogRecordHeaderBytes, length);
    if (MaskedCrc32c(kind, payload) != crc) {
      if (Status status = torn_or_corrupt(end, "record checksum mismatch"); !status.ok()) {
        return status.error();
      }
      break;
    }
    contents.records.push_back({kind, payload, at});
    at = end;
    contents.valid_bytes = at;
  }
  return contents;
}

}  // namespace ddbd
