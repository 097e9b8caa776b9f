#include "protocol/base64.h"

#include <array>

namespace ddbd {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (int i = 0; i < 64; ++i) table[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return table;
}
constexpr auto kDecode = MakeDecodeTable();

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t n = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i]) << 16 |
                                             static_cast<uint8_t>(bytes[i + 1]) << 8 |
                                             static_cast<uint8_t>(bytes[i + 2]));
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i < bytes.size()) {
    uint32_t n = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i]) << 16);
    if (i + 1 < bytes.size()) n |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1]) << 8);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    return Error::Serialization(
        "Base64 encoded length is expected a multiple of 4 bytes but found: " +
        std::to_string(text.size()));
  }
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t n = 0;
    const bool last = i + 4 == text.size();
    for (size_t j = 0; j < 4; ++j) {
      const char c = text[i + j];
      if (last && j >= 4 - padding) {
        n <<= 6;
        continue;
      }
      const int8_t sextet = kDecode[static_cast<uint8_t>(c)];
      if (c == '=') {
        // Padding where data should be: DynamoDB's decoder blames the last data character
        // (pinned by attribute_value_json_test.cc with DynamoDB's text for "=+/=").
        return Error::Serialization("Invalid last non-pad Base64 character dectected");
      }
      if (sextet < 0) {
        return Error::Serialization(std::string("Invalid Base64 character: '") + c + "'");
      }
      n = n << 6 | static_cast<uint32_t>(sextet);
    }
    // Unused low bits of the last character before padding must be zero.
    if (last && ((padding == 1 && (n & 0xFF) != 0) || (padding == 2 && (n & 0xFFFF) != 0))) {
      return Error::Serialization("Invalid last non-pad Base64 character dectected");
    }
    out += static_cast<char>((n >> 16) & 0xFF);
    if (!last || padding < 2) out += static_cast<char>((n >> 8) & 0xFF);
    if (!last || padding < 1) out += static_cast<char>(n & 0xFF);
  }
  return out;
}

}  // namespace ddbd
