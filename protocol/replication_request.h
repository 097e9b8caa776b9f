// The body of the admin API's POST /_ddbd/replication/pause and /resume (server/admin_api.h), read
// here because JSON is the protocol module's: {"source": REGION, "target": REGION}, either or both
// left out for every region (an empty body too).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ddbd {

// (source, target), "" for every region; nullopt when the body is not such an object.
std::optional<std::pair<std::string, std::string>> ReplicationRegionsOf(std::string_view body);

}  // namespace ddbd
