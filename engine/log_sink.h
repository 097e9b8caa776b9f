// What the engine tells its operator (recovery's report, the write-ahead log's failures and their
// end), through a sink the composition root provides: the engine itself logs nothing, so it
// depends on no logging library and tests can read what it said.
//
// Thread safety: a sink may be called from any thread (recovery's, the log writer's).
#pragma once

#include <functional>
#include <string>

namespace ddbd {

enum class Severity { kInfo, kWarning, kError };
using LogSink = std::function<void(Severity, const std::string&)>;

}  // namespace ddbd
