// Typed access to the JSON of attribute values, which the attribute decoder reads straight into
// the engine's form (protocol/attribute_value_json.h). A value of the wrong JSON type is a
// SerializationException with the text DynamoDB's (Java, "coral") deserializer sends. Every other
// member of a request is read by the generated layer (protocol/wire/reader.h).
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/error.h"

namespace ddbd::json {

using Value = rapidjson::Value;

// A string value's text (the caller knows it is one).
inline std::string_view Text(const Value& value) {
  return {value.GetString(), value.GetStringLength()};
}

// coral's name for a JSON scalar token, as in "<TOKEN> cannot be converted to <Type>".
const char* TokenName(const Value& value);

// The member `name` of `object`, or null when absent or JSON null.
const Value* Member(const Value& object, std::string_view name);

// Scalars. `value` may be null (absent); the result is then nullopt.
Result<std::optional<std::string_view>> AsString(const Value* value);
Result<std::optional<bool>> AsBoolean(const Value* value);
// A list: the value itself when one, null when absent.
Result<const Value*> AsList(const Value* value);

}  // namespace ddbd::json
