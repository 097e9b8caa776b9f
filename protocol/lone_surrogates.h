// Whether JSON text escapes a lone low surrogate (\uDC00 to \uDFFF not right after a \uD800 to
// \uDBFF escape). RapidJSON 1.1 (Debian 12's) refuses a lone high surrogate but takes a lone low
// one, storing it as three bytes that are not UTF-8: an item holding them would be answered, and
// exported, as invalid UTF-8. The body parsers refuse such text as they refuse any other
// malformed string (a SerializationException for a request, not an item for an import line).
#pragma once

#include <cstring>
#include <string_view>

namespace ddbd {

// Only backslashes are looked at (found with memchr); each escape is stepped over whole, so an
// escaped backslash before a 'u' is no escape of its own.
inline bool EscapesLoneLowSurrogate(std::string_view json) {
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

}  // namespace ddbd
