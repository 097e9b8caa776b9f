// Base64 for B and BS values. Decoding failures carry the SerializationException text DynamoDB's
// deserializer sends.
#pragma once

#include <string>
#include <string_view>

#include "engine/error.h"

namespace ddbd {

std::string Base64Encode(std::string_view bytes);
Result<std::string> Base64Decode(std::string_view text);

}  // namespace ddbd
