// A text written as a JSON string literal at a cursor the caller has made room at: the inner
// loop of every string an answer carries (json::AppendQuoted) and of a stored item's JSON
// (item_blob_json.cc), inline so that a short name or value costs one 16-byte block and no call.
// Included only by those two: it brings the SIMD intrinsics with it.
//
// On x86-64 (SSE2 is in every such CPU) the 16-byte scan is compiled in every build, the
// sanitized ones too, so the unit tests and fuzzers run it (RapidJSON's own SIMD scans are left
// out of those builds: see CMakeLists.txt). Its loads read past a text's end within its page,
// which AddressSanitizer would report: QuoteInto is not instrumented, and the page test of
// tests/protocol/json_writer_test.cc pins that it never crosses into the next page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "protocol/json_writer.h"

#ifdef __SSE2__
#include <emmintrin.h>
#define DDBD_QUOTE_SSE2 1
#endif

namespace ddbd::json {

// The room QuoteInto needs for a text of `size` bytes: each byte at worst \u00XX, the quotes,
// and 16 bytes for a block stored whole from the last byte written.
constexpr size_t QuotedRoom(size_t size) { return 2 + size * 6 + 16; }

#ifdef DDBD_QUOTE_SSE2
// The bytes of `block` a JSON string must escape, one bit each: '"', '\\' and every byte below
// 0x20. (RapidJSON 1.1's own SSE2 scan takes only bytes up to 0x19 for control bytes and would
// write U+001A-U+001F unescaped, a body SDKs drop: see Buffer in json_writer.h.)
inline unsigned SpecialBytes(__m128i block) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1F);
  const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, last_control), last_control);
  const __m128i special = _mm_or_si128(
      control, _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
  return static_cast<unsigned>(_mm_movemask_epi8(special));
}

// Whether the 16 bytes from `p` lie in one page: a load of them cannot fault when `p`'s byte is
// readable, even past the end of its text.
inline bool InOnePage(const char* p) {
  return (reinterpret_cast<uintptr_t>(p) & 4095) <= 4096 - 16;
}
#endif

// The escape of byte `c` ('"', '\' or below 0x20) written at `o`; returns the end.
char* EscapeInto(char* o, unsigned char c);

// Writes `text` at `o` as a JSON string literal, quotes included, escaped byte for byte as
// RapidJSON's Writer::String escapes it (\", \\, \b \f \n \r \t, \u00XX for other bytes below
// 0x20; everything else as it is); returns the end. `o` has QuotedRoom(text.size()) bytes of room.
// Scans and copies 16 bytes at a time, the last few of a text too: the block is loaded whole when
// it stays in its page (reading past the text's end, as RapidJSON's own SIMD scan does: not
// instrumented, see above), stored whole into the room, and only its plain bytes kept.
[[gnu::no_sanitize_address]] inline char* QuoteInto(char* o, std::string_view text) {
  *o++ = '"';
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    size_t plain;
#ifdef DDBD_QUOTE_SSE2
    const auto left = static_cast<size_t>(end - p);
    if (left >= 16 || InOnePage(p)) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), block);
      unsigned mask = SpecialBytes(block);
      if (left < 16) mask |= ~0u << left;  // past the end counts as a stop
      if (mask == 0) {
        p += 16;
        o += 16;
        continue;
      }
      plain = static_cast<size_t>(__builtin_ctz(mask));
    } else {
      plain = PlainRun(p, end);
      std::memcpy(o, p, plain);
    }
#else
    plain = PlainRun(p, end);
    std::memcpy(o, p, plain);
#endif
    p += plain;
    o += plain;
    if (p == end) break;
    o = EscapeInto(o, static_cast<unsigned char>(*p++));
  }
  *o++ = '"';
  return o;
}

}  // namespace ddbd::json
