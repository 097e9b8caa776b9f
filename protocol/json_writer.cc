#include "protocol/json_writer.h"

#ifdef RAPIDJSON_SSE2
#include <emmintrin.h>
#endif

namespace ddbd::json {

size_t PlainRun(const char* from, const char* end) {
  const char* p = from;
#ifdef RAPIDJSON_SSE2
  // 16 bytes at a time. (RapidJSON 1.1's own SSE2 scan takes only bytes up to 0x19 for control
  // bytes and would write U+001A-U+001F unescaped, a body SDKs drop: see Buffer.)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(block, last_control), last_control);
    const __m128i special = _mm_or_si128(
        control, _mm_or_si128(_mm_cmpeq_epi8(block, quote), _mm_cmpeq_epi8(block, backslash)));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if (mask != 0) return static_cast<size_t>(p - from) + static_cast<size_t>(__builtin_ctz(mask));
    p += 16;
  }
#endif
  while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return static_cast<size_t>(p - from);
}

void AppendQuoted(Buffer& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  out.Reserve(2 + text.size() * 6);
  out.PutUnsafe('"');
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const size_t plain = PlainRun(p, end);
    std::memcpy(out.PushUnsafe(plain), p, plain);
    p += plain;
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p++);
    out.PutUnsafe('\\');
    switch (c) {
      case '"':
      case '\\':
        out.PutUnsafe(static_cast<char>(c));
        break;
      case '\b':
        out.PutUnsafe('b');
        break;
      case '\f':
        out.PutUnsafe('f');
        break;
      case '\n':
        out.PutUnsafe('n');
        break;
      case '\r':
        out.PutUnsafe('r');
        break;
      case '\t':
        out.PutUnsafe('t');
        break;
      default:
        out.PutUnsafe('u');
        out.PutUnsafe('0');
        out.PutUnsafe('0');
        out.PutUnsafe(kHex[c >> 4]);
        out.PutUnsafe(kHex[c & 0xF]);
        break;
    }
  }
  out.PutUnsafe('"');
}

}  // namespace ddbd::json
