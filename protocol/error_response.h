// Turns an Error into DynamoDB's error body and HTTP status. The one place that knows the
// `__type` prefixes (coral vs dynamodb) and which key ("message" or "Message") carries the text.
#pragma once

#include <cstddef>
#include <string_view>

#include "engine/error.h"
#include "protocol/dispatcher.h"

namespace ddbd {

DispatchResult ErrorResponse(const Error& error);

// The most of a message an error body carries: messages that quote client input (a value that
// broke a constraint, a statement) never grow an answer past this, whatever the request held.
inline constexpr size_t kMaxErrorMessageBytes = 128 * 1024;
// `message` cut to kMaxErrorMessageBytes at a character boundary.
std::string_view BoundedMessage(std::string_view message);

}  // namespace ddbd
