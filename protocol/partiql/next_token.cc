#include "protocol/partiql/next_token.h"

#include <rapidjson/document.h>

#include <cstdio>

#include "protocol/attribute_value_json.h"
#include "protocol/base64.h"
#include "protocol/json_writer.h"
#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

constexpr size_t kFingerprintDigits = 16;

std::string Hex(uint64_t value) {
  char text[kFingerprintDigits + 1];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return std::string(text, kFingerprintDigits);
}

}  // namespace

uint64_t StatementFingerprint(std::string_view statement, std::string_view parameters_json) {
  uint64_t hash = 14695981039346656037ULL;
  auto mix = [&hash](std::string_view bytes) {
    for (char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  };
  mix(statement);
  mix(std::string_view("\0", 1));
  mix(parameters_json);
  return hash;
}

// The fingerprint in hex, then the key as DynamoDB JSON, all in base64.
std::string EncodeNextToken(uint64_t fingerprint, const Item& last_evaluated_key) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  EncodeItem(writer, last_evaluated_key);
  return Base64Encode(Hex(fingerprint) + std::string(buffer.GetString(), buffer.GetSize()));
}

Result<Item> DecodeNextToken(std::string_view token, uint64_t fingerprint) {
  const Error invalid = Error::Validation(std::string(kInvalidNextToken));
  auto bytes = Base64Decode(token);
  if (!bytes.ok() || bytes.value().size() <= kFingerprintDigits) return invalid;
  const std::string& text = bytes.value();
  rapidjson::Document document;
  document.Parse<rapidjson::kParseIterativeFlag>(text.data() + kFingerprintDigits,
                                                 text.size() - kFingerprintDigits);
  if (document.HasParseError() || !document.IsObject()) return invalid;
  AttributeDecoder decoder;
  Item key = decoder.DecodeItem(&document);
  if (decoder.failed() || key.empty()) return invalid;
  if (text.compare(0, kFingerprintDigits, Hex(fingerprint)) != 0) {
    return Error::Validation(std::string(kNextTokenMismatch));
  }
  return key;
}

}  // namespace ddbd::partiql
