// ASCII rules for the words requests carry that are matched in any case and trimmed: expression
// and PartiQL keywords, HTTP header names and values, content codings. (Debian's Abseil has its own
// string_view type, so its helpers do not take std::string_view.)
#pragma once

#include <string>
#include <string_view>

namespace ddbd {

// The C locale's classes (ddbd never sets another locale), inline: <cctype>'s are a call per
// character.
inline bool AsciiIsLetter(char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
inline bool AsciiIsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool AsciiIsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
// A letter, digit or '_': what expression names and #name / :value placeholders are made of.
inline bool AsciiIsWordChar(char c) { return AsciiIsLetter(c) || AsciiIsDigit(c) || c == '_'; }

inline char AsciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
inline char AsciiUpper(char c) {
  return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

inline bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  // Most texts arrive in the case they are compared with (a content type, a keyword): one
  // memcmp, where the loop lower-cases both sides byte by byte.
  if (a == b) return true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

// `text` without the spaces and tabs around it (HTTP's optional whitespace).
inline std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

inline std::string AsciiUpper(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) c = AsciiUpper(c);
  return upper;
}

inline std::string AsciiLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = AsciiLower(c);
  return lower;
}

}  // namespace ddbd
