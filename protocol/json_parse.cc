#include "protocol/json_parse.h"

#include <cstring>
#include <string_view>

namespace ddbd::json {
namespace {

bool EndsInLeadByte(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  return (size >= 1 && bytes[size - 1] >= 0xC0) || (size >= 2 && bytes[size - 2] >= 0xE0) ||
         (size >= 3 && bytes[size - 3] >= 0xF0);
}

// Only backslashes are looked at (found with memchr): a body without one costs one call. Each
// escape is stepped over whole, so an escaped backslash before a 'u' is no escape of its own.
bool EscapesLoneLowSurrogate(std::string_view json) {
  const auto hex_digit = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  const char* const end = json.data() + json.size();
  const char* at = json.data();
  const char* after_high = nullptr;  // where an escape right after a high surrogate would start
  while (at < end) {
    const void* found = std::memchr(at, '\\', static_cast<size_t>(end - at));
    if (found == nullptr) return false;
    at = static_cast<const char*>(found);
    if (end - at < 2 || at[1] != 'u') {
      at += 2;
      continue;
    }
    if (end - at < 6) return false;  // a truncated escape: the parse refuses it
    int code = 0;
    for (int i = 2; i < 6; ++i) {
      const int digit = hex_digit(at[i]);
      if (digit < 0) return false;  // not an escape: the parse refuses it
      code = code * 16 + digit;
    }
    if (code >= 0xDC00 && code <= 0xDFFF && at != after_high) return true;
    after_high = code >= 0xD800 && code <= 0xDBFF ? at + 6 : nullptr;
    at += 6;
  }
  return false;
}

}  // namespace

bool ParseInPlace(std::string& text, rapidjson::Document& document) {
  if (EndsInLeadByte(text) || EscapesLoneLowSurrogate(text)) return false;
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  document.ParseInsitu<kFlags>(text.data());
  return !document.HasParseError();
}

}  // namespace ddbd::json
