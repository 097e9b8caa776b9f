// Typed access to the members of a DynamoDB JSON request. A member of the wrong JSON type is a
// SerializationException with the text DynamoDB's (Java, "coral") deserializer sends; an absent
// or null member reads as "not given". Unknown members are ignored, as DynamoDB does.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/error.h"

namespace ddbd::json {

using Value = rapidjson::Value;

// The member `name` of `object`, or null when absent or JSON null.
const Value* Member(const Value& object, std::string_view name);

// Scalars. `value` may be null (absent); the result is then nullopt.
Result<std::optional<std::string_view>> AsString(const Value* value);
Result<std::optional<int64_t>> AsLong(const Value* value);
Result<std::optional<int64_t>> AsInteger(const Value* value);
Result<std::optional<bool>> AsBoolean(const Value* value);
// A timestamp (epoch seconds, fractions allowed, as the SDKs send Date members) in milliseconds.
Result<std::optional<int64_t>> AsEpochMs(const Value* value);

// Containers: the value itself when of the right type, null when absent.
// `shape` names DynamoDB's Java class for the structure, e.g. "KeySchemaElement".
Result<const Value*> AsList(const Value* value);
Result<const Value*> AsStructure(const Value* value, std::string_view shape);
// A structure that is an element of a list ("value" position in coral's words).
Result<const Value*> AsListElementStructure(const Value* value, std::string_view shape);

}  // namespace ddbd::json
