#include "protocol/partiql/next_token.h"

#include <rapidjson/document.h>

#include <cctype>
#include <cstdio>
#include <string>

#include "protocol/attribute_value_json.h"
#include "protocol/base64.h"
#include "protocol/json_writer.h"
#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

constexpr size_t kFingerprintDigits = 16;
constexpr size_t kPartitionDigits = 4;
constexpr size_t kHeaderDigits = kFingerprintDigits + kPartitionDigits;

std::string Hex(uint64_t value, size_t digits) {
  char text[kFingerprintDigits + 1];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return std::string(text + kFingerprintDigits - digits, digits);
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

// The fingerprint and the partition in hex, then the key as DynamoDB JSON, all in base64.
std::string EncodeNextToken(uint64_t fingerprint, const ResumePoint& resume) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  EncodeItem(writer, resume.key);
  return Base64Encode(Hex(fingerprint, kFingerprintDigits) +
                      Hex(resume.partition, kPartitionDigits) +
                      std::string(buffer.GetString(), buffer.GetSize()));
}

Result<ResumePoint> DecodeNextToken(std::string_view token, uint64_t fingerprint) {
  const Error invalid = Error::Validation(std::string(kInvalidNextToken));
  auto bytes = Base64Decode(token);
  if (!bytes.ok() || bytes.value().size() <= kHeaderDigits) return invalid;
  const std::string& text = bytes.value();
  ResumePoint resume;
  for (size_t i = kFingerprintDigits; i < kHeaderDigits; ++i) {
    const int digit = std::isxdigit(static_cast<unsigned char>(text[i]))
                          ? std::stoi(std::string(1, text[i]), nullptr, 16)
                          : -1;
    if (digit < 0) return invalid;
    resume.partition = resume.partition * 16 + static_cast<size_t>(digit);
  }
  rapidjson::Document document;
  document.Parse<rapidjson::kParseIterativeFlag>(text.data() + kHeaderDigits,
                                                 text.size() - kHeaderDigits);
  if (document.HasParseError() || !document.IsObject()) return invalid;
  AttributeDecoder decoder;
  resume.key = decoder.DecodeItem(&document);
  if (decoder.failed() || resume.key.empty()) return invalid;
  if (text.compare(0, kFingerprintDigits, Hex(fingerprint, kFingerprintDigits)) != 0) {
    return Error::Validation(std::string(kNextTokenMismatch));
  }
  return resume;
}

}  // namespace ddbd::partiql
