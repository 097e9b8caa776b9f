// The JSON writer every operation encodes its response with: one growing buffer per request.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace ddbd::json {

// The buffer's allocator is a type of its own so that Writer<Buffer> is not RapidJSON's
// Writer<StringBuffer>: RapidJSON 1.1.0's SSE2 string scan for that one treats only bytes up to
// 0x19 as control characters and writes U+001A-U+001F unescaped, an invalid body that SDKs
// silently drop (the item looks missing). Ours, below, escapes every byte below 0x20.
struct BufferAllocator : rapidjson::CrtAllocator {};
using Buffer = rapidjson::GenericStringBuffer<rapidjson::UTF8<>, BufferAllocator>;
using Writer = rapidjson::Writer<Buffer>;

inline void String(Writer& writer, std::string_view text) {
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// DynamoDB sends timestamps as epoch seconds with a fraction, e.g. 1700000000.123.
inline void EpochSeconds(Writer& writer, int64_t epoch_ms) {
  writer.Double(static_cast<double>(epoch_ms) / 1000.0);
}

// A member name that needs no escaping, given with its quotes ("\"TableName\""): copied as it
// is, without the escape scan of Writer::Key (the generated writers' member names).
template <size_t N>
inline void Key(Writer& writer, const char (&quoted)[N]) {
  writer.RawValue(quoted, N - 1, rapidjson::kStringType);
}

// A number as DynamoDB writes a double: 1.0, 2.5, 0.25. Capacity units, the doubles of most
// answers, are multiples of 0.5: written here without RapidJSON's general (and costlier) Grisu
// formatting, which gives the same text.
inline void Double(Writer& writer, double value) {
  const double halves = value * 2;
  if (!(value >= 0 && value < 1e15) ||
      halves != static_cast<double>(static_cast<int64_t>(halves))) {
    writer.Double(value);
    return;
  }
  char text[24];
  char* end = text + sizeof(text);
  char* p = end;
  const int64_t whole_halves = static_cast<int64_t>(halves);
  *--p = whole_halves % 2 == 0 ? '0' : '5';
  *--p = '.';
  int64_t whole = whole_halves / 2;
  do {
    *--p = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole != 0);
  writer.RawValue(p, static_cast<size_t>(end - p), rapidjson::kNumberType);
}

// A parsed value (rapidjson::Value) as compact JSON text, through the writer above, so every
// control byte is escaped (rapidjson::Writer<StringBuffer> would not: see Buffer).
template <typename Value>
std::string Text(const Value& value) {
  Buffer buffer;
  Writer writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The buffer `writer` writes into, for an encoder that appends JSON text of its own where the
// writer has placed a value (RawValue with no text writes the separator before it).
inline Buffer& BufferOf(Writer& writer) {
  struct Access : Writer {
    using Writer::os_;  // protected; a member pointer through a derived class may name it
  };
  return *(writer.*(&Access::os_));
}

// The length of the run of bytes from `from` (before `end`) that a JSON string holds as they are:
// up to the first '"', '\' or byte below 0x20.
size_t PlainRun(const char* from, const char* end);

// Appends `text` to `out` as a JSON string literal, quotes included, escaped byte for byte as
// Writer::String escapes it (\", \\, \b \f \n \r \t, \u00XX for other bytes below 0x20;
// everything else as it is).
void AppendQuoted(Buffer& out, std::string_view text);

// `text` as a JSON string literal, quotes included.
inline std::string Quoted(std::string_view text) {
  Buffer buffer;
  Writer writer(buffer);
  String(writer, text);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddbd::json

// Copies the run of bytes that need no escape (json::PlainRun) and stops at the first '"', '\' or
// byte below 0x20, where RapidJSON's own loop escapes it. The writer reserved room for the whole
// string (6 bytes per input byte) before calling.
template <>
inline bool rapidjson::Writer<ddbd::json::Buffer>::ScanWriteUnescapedString(StringStream& is,
                                                                            size_t length) {
  const char* p = is.src_;
  const size_t plain = ddbd::json::PlainRun(p, is.head_ + length);
  std::memcpy(os_->PushUnsafe(plain), p, plain);
  is.src_ = p + plain;
  return is.Tell() < length;
}
