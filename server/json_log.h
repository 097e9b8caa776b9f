// The server log as JSON lines (--log-format json), for log collectors that parse each line.
#pragma once

namespace ddbd {

// From now on, every line of spdlog's default logger is one JSON object:
// {"time":"2026-11-26T09:00:00.123Z","level":"info","message":"..."}. The message is escaped
// (quotes, backslashes, control bytes, and bytes past ASCII as \u00XX), so a line is always
// valid JSON whatever a logged value holds.
void UseJsonLog();

}  // namespace ddbd
