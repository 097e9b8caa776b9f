// --stream-trigger TABLE=URL[,NAME=VALUE...]: one stream trigger as the command line gives it
// (engine/triggers/stream_triggers.h delivers; server/stream_trigger_function.h invokes). The
// settings are Lambda's CreateEventSourceMapping parameters for a DynamoDB stream, named as the
// AWS CLI names them, with Lambda's ranges and defaults:
//   batch-size=N                           1..10000, 100
//   maximum-batching-window-in-seconds=N   0..300, 0
//   starting-position=TRIM_HORIZON|LATEST  TRIM_HORIZON
//   maximum-retry-attempts=N               -1 (until the record expires) or 0..10000, -1
//   maximum-record-age-in-seconds=N        -1 (until the record expires) or 60..604800, -1
//   bisect-batch-on-function-error=true|false                       false
//   function-response-types=ReportBatchItemFailures                 none
//   filter=PATTERN                         a filter criteria pattern (JSON; repeatable, up to 5)
//   on-failure=FILE                        records of batches given up, one JSON line each
//   function-name=NAME                     the function's name in its ARN, "stream-trigger"
// A value starting with '{' runs to its matching '}', commas and all (a pattern).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddbd {

struct StreamTriggerSpec {
  std::string name;  // TABLE=URL: what the trigger's position is kept under
  std::string table_name;
  std::string url;
  int batch_size = 100;
  int batching_window_seconds = 0;
  bool start_at_latest = false;
  int retry_attempts = -1;
  int max_record_age_seconds = -1;
  bool bisect_on_error = false;
  bool report_batch_item_failures = false;
  std::vector<std::string> filters;
  std::string on_failure;
  std::string function_name = "stream-trigger";
};

// The trigger `text` describes, or nullopt with what is wrong in `problem`.
std::optional<StreamTriggerSpec> ParseStreamTrigger(std::string_view text, std::string& problem);

}  // namespace ddbd
