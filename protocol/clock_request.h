// The body of the admin API's POST /_ddbd/clock (server/admin_api.h), read here because JSON is
// the protocol module's: {"advanceSeconds": N}, {"advanceMillis": N} or {"epochSeconds": N}.
#pragma once

#include <optional>
#include <string_view>

namespace ddbd {

// How many milliseconds the body asks the clock to move from `now_ms` (negative when it names a
// moment before now); nullopt when it is none of the three shapes.
std::optional<double> ClockMoveMs(std::string_view body, double now_ms);

}  // namespace ddbd
