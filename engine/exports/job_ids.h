// The identifiers exports and imports mint: their ids ("<14 digits of ms>-<8 hex digits>", as
// DynamoDB's look) and the ClientToken described when a request gave none (a random UUID).
#pragma once

#include <cstdint>
#include <string>

namespace ddbd {

// How long an export's or import's ClientToken binds its parameters, as DynamoDB documents.
inline constexpr int64_t kClientTokenMs = int64_t{8} * 3'600'000;

// Ids made in this process have increasing time parts: `now_ms`, or 1 ms past the last id's.
std::string NewJobId(int64_t now_ms);
std::string NewClientToken();

}  // namespace ddbd
