// A stream trigger's function (--stream-trigger TABLE=URL,...): each batch is one POST of Lambda's
// DynamoDB event (protocol/lambda_event.h) to URL, as Lambda invokes a function: the Runtime
// Interface Emulator's /2015-03-31/functions/function/invocations, sam local start-lambda's
// /2015-03-31/functions/NAME/invocations, or any HTTP handler. The answer is read as
// ReadFunctionAnswer says; the trigger's filter criteria (protocol/event_filter.h) select records;
// batches given up are appended to the on-failure file, one JSON line each.
//
// Thread safety: one engine's trigger thread calls it (each engine gets its own).
#pragma once

#include <memory>
#include <string>

#include "config/stream_trigger_spec.h"
#include "engine/api/stream_triggers.h"

namespace ddbd {

// The function for `spec` in an engine of `region` and `account_id` (its ARN's), or null with what
// is wrong (a URL or a filter pattern) in `problem`.
std::shared_ptr<StreamTriggerFunction> NewStreamTriggerFunction(const StreamTriggerSpec& spec,
                                                                const std::string& region,
                                                                const std::string& account_id,
                                                                std::string& problem);

// The engine's settings for `spec`, with its function.
StreamTriggerSettings StreamTriggerSettingsOf(const StreamTriggerSpec& spec,
                                              std::shared_ptr<StreamTriggerFunction> function);

}  // namespace ddbd
