// The JSON writer every operation encodes its response with: one growing buffer per request.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string_view>

namespace ddbd::json {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

inline void String(Writer& writer, std::string_view text) {
  writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// DynamoDB sends timestamps as epoch seconds with a fraction, e.g. 1700000000.123.
inline void EpochSeconds(Writer& writer, int64_t epoch_ms) {
  writer.Double(static_cast<double>(epoch_ms) / 1000.0);
}

}  // namespace ddbd::json
