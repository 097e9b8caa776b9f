#include "protocol/json_parse.h"

#include <cstdint>
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

// A text with at most this many objects and arrays is parsed by RapidJSON's recursive parser,
// which cannot recurse deeper than that; any other by its iterative one, which does not recurse
// but costs more (a 330-byte PutItem's body: 6,480 instructions against 5,690). Requests of a few
// items fall under it (a PutItem of 7 attributes holds 9).
constexpr size_t kMostRecursiveOpeners = 64;

// What one pass over a text tells about it.
struct TextSurvey {
  // Whether RapidJSON's unchecked parse reads the text as its checked parse would: every byte is
  // ASCII (so UTF-8 as it stands), and none is a control byte 0x1A-0x1F, which RapidJSON 1.1's
  // SIMD string scan lets through where its byte loop refuses them (the scan's bound is 0x19).
  bool plain_ascii = false;
  // How many '{' and '[' it holds, strings' included (at least its depth of nesting), counted up
  // to a little more than `most_openers` (Survey's argument).
  size_t openers = 0;
};

// Eight bytes at a time. For a byte x below 0x80, x + 0x66 has its top bit set when x >= 0x1A and
// x + 0x60 when x >= 0x20, without a carry into the next byte (a byte of 0x80 or more may carry,
// but then the text is not ASCII anyway). '{' (0x7B) and '[' (0x5B) differ in bit 0x20 alone:
// with it set and 0x7B taken away, exactly their bytes are zero, and a byte b is zero exactly when
// ((b & 0x7F) + 0x7F) | b has its top bit clear (no carry leaves a byte).
TextSurvey Survey(std::string_view text, size_t most_openers) {
  constexpr uint64_t kTop = 0x8080808080808080u;
  constexpr uint64_t kLow = 0x7F7F7F7F7F7F7F7Fu;
  constexpr uint64_t kOnes = 0x0101010101010101u;
  const char* at = text.data();
  const char* const end = at + text.size();
  uint64_t high = 0;
  uint64_t control = 0;
  size_t openers = 0;
  const auto plain_word = [&](uint64_t word) {
    high |= word;
    control |= (word + 0x6666666666666666u) & ~(word + 0x6060606060606060u);
  };
  for (; end - at >= 8 && openers <= most_openers; at += 8) {
    uint64_t word;
    std::memcpy(&word, at, sizeof word);
    plain_word(word);
    const uint64_t folded = (word | 0x2020202020202020u) ^ 0x7B7B7B7B7B7B7B7Bu;
    const uint64_t zero = ~(((folded & kLow) + kLow) | folded | kLow);  // top bits of zero bytes
    openers += static_cast<size_t>(((zero >> 7) * kOnes) >> 56);        // how many: 0 to 8
  }
  for (; end - at >= 8; at += 8) {  // past `most_openers`, only what is plain
    uint64_t word;
    std::memcpy(&word, at, sizeof word);
    plain_word(word);
  }
  for (; at < end; ++at) {
    const auto byte = static_cast<unsigned char>(*at);
    high |= byte;
    if (byte >= 0x1A && byte < 0x20) control |= kTop;
    if ((byte | 0x20) == 0x7B) ++openers;
  }
  return {((high | control) & kTop) == 0, openers};
}

template <unsigned kFlags>
void ParseInsitu(rapidjson::Document& document, char* text, size_t openers) {
  if (openers <= kMostRecursiveOpeners) {
    document.ParseInsitu<kFlags>(text);
  } else {
    document.ParseInsitu<kFlags | rapidjson::kParseIterativeFlag>(text);
  }
}

}  // namespace

bool ParseInPlace(std::string& text, rapidjson::Document& document) {
  if (EscapesLoneLowSurrogate(text)) return false;
  // ASCII text is UTF-8 as it stands. RapidJSON checks the encoding byte by byte, and its SIMD
  // scan of a string's plain run works only without that check: the check is kept for text
  // with other bytes (most requests have none).
  const TextSurvey survey = Survey(text, kMostRecursiveOpeners);
  if (survey.plain_ascii) {
    ParseInsitu<rapidjson::kParseDefaultFlags>(document, text.data(), survey.openers);
  } else {
    if (EndsInLeadByte(text)) return false;
    ParseInsitu<rapidjson::kParseValidateEncodingFlag>(document, text.data(), survey.openers);
  }
  return !document.HasParseError();
}

}  // namespace ddbd::json
