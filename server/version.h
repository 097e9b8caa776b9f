// What `ddbd --version` prints: "ddbd <version> (git <12 hex digits>)".
#pragma once

#include <string>

namespace ddbd {

// The commit the binary was built from (server/version.cmake), or "unknown".
extern const char* const kGitCommit;

inline std::string VersionText() {
  return std::string("ddbd ") + DDBD_VERSION + " (git " + kGitCommit + ")";
}

}  // namespace ddbd
