// What the access log and the JSON server log both write: escaped string contents and UTC
// timestamps, so one line is always valid JSON whatever a logged value holds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ddbd {

// Appends `text` as a JSON string's contents: quotes and backslashes escaped, control bytes and
// bytes past ASCII as \u00XX (a logged value is not always UTF-8).
void AppendJsonEscaped(std::string& out, std::string_view text);

// "2026-11-26T09:00:00.123Z" for `time_ms` since the epoch.
std::string UtcTimestamp(int64_t time_ms);

}  // namespace ddbd
