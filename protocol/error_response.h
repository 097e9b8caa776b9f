// Turns an Error into DynamoDB's error body and HTTP status. The one place that knows the
// `__type` prefixes (coral vs dynamodb) and which key ("message" or "Message") carries the text.
#pragma once

#include "engine/error.h"
#include "protocol/dispatcher.h"

namespace ddbd {

DispatchResult ErrorResponse(const Error& error);

}  // namespace ddbd
