// The web console's files (server/console/), built into the binary by
// server/console/embed.cmake so that ddbd serves /console with nothing else installed.
#pragma once

#include <string_view>

namespace ddbd {

struct ConsoleAsset {
  std::string_view name;  // "index.html", "console.js", ...
  std::string_view content_type;
  std::string_view body;
};

// The file called `name`, or null.
const ConsoleAsset* FindConsoleAsset(std::string_view name);

}  // namespace ddbd
