// json::AppendQuoted, which scans and copies 16 bytes at a time and loads the last block of a
// text whole when it stays in its page: the same text as a byte-by-byte escape for every byte
// at every offset and length, and no read past a page's end.
#include "protocol/json_writer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <string_view>

namespace ddbd {
namespace {

// What a JSON string of `text` is, one byte at a time, as DynamoDB (and RapidJSON's writer)
// escape it.
std::string Reference(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          static constexpr char kHex[] = "0123456789ABCDEF";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string Quote(std::string_view text) {
  json::Buffer buffer;
  json::AppendQuoted(buffer, text);
  return std::string(buffer.GetString(), buffer.GetSize());
}

TEST_CASE("AppendQuoted escapes every byte at every offset of texts of every length") {
  for (size_t length = 1; length <= 40; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(byte);
        const std::string got = Quote(text);
        if (got != Reference(text)) {
          FAIL("length " << length << ", byte " << byte << " at " << at << ": " << got);
        }
      }
    }
  }
  CHECK(Quote("") == "\"\"");
  const std::string mixed =
      std::string(37, 'x') + "\"\\\n\x1f\x7f\xc3\xa9" + std::string(20, '\x01');
  CHECK(Quote(mixed) == Reference(mixed));
}

TEST_CASE("AppendQuoted appends after what the buffer holds") {
  json::Buffer buffer;
  for (size_t i = 0; i < 100; ++i) json::AppendQuoted(buffer, std::string(i % 23, '\n'));
  std::string expected;
  for (size_t i = 0; i < 100; ++i) expected += Reference(std::string(i % 23, '\n'));
  CHECK(std::string(buffer.GetString(), buffer.GetSize()) == expected);
}

TEST_CASE("AppendQuoted reads nothing past a page that ends its text") {
  // Two pages, the second unreadable: a text ending at the first's last byte would fault if
  // its last block were loaded across the boundary.
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mapping != MAP_FAILED);
  char* const first = static_cast<char*>(mapping);
  REQUIRE(mprotect(first + page, page, PROT_NONE) == 0);
  std::memset(first, 'q', page);
  first[page - 3] = '"';
  for (size_t length = 0; length <= 40; ++length) {
    const std::string_view text(first + page - length, length);
    CHECK(Quote(text) == Reference(text));
  }
  munmap(mapping, 2 * page);
}

}  // namespace
}  // namespace ddbd
