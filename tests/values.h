// Attribute values in a word, for tests of every module: S("a"), N("12.5"). N takes the number's
// text as stored (canonical: no exponent, no leading or trailing zeros); NumberOf takes any
// number DynamoDB accepts ("1E2", "007", 42) and stores its canonical text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "engine/model/attribute_value.h"
#include "engine/model/number.h"

namespace ddbd {

inline AttributeValue S(std::string text) { return AttributeValue::String(std::move(text)); }
inline AttributeValue N(std::string text) { return AttributeValue::Number(std::move(text)); }
inline AttributeValue NumberOf(std::string_view text) {
  return AttributeValue::Number(Number::Parse(text).value().ToString());
}
inline AttributeValue NumberOf(int64_t value) { return NumberOf(std::to_string(value)); }

}  // namespace ddbd
