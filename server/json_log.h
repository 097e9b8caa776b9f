// The server log as JSON lines (--log-format json), for log collectors that parse each line.
#pragma once

namespace ddbd {

// From now on, every line of spdlog's default logger is one JSON object:
// {"time":"2026-11-26T09:00:00.123Z","level":"info","message":"..."}, escaped as the access log
// escapes (server/json_line.h).
void UseJsonLog();

}  // namespace ddbd
