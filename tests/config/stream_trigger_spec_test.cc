// --stream-trigger's text (config/stream_trigger_spec.h): Lambda's defaults, every setting, a
// pattern's commas, and what is refused.
#include "config/stream_trigger_spec.h"

#include <catch2/catch.hpp>

#include "config/options.h"

namespace ddbd {
namespace {

TEST_CASE("A stream trigger's defaults are Lambda's") {
  std::string problem;
  auto spec = ParseStreamTrigger(
      "Orders=http://localhost:9000/2015-03-31/functions/function/invocations", problem);
  REQUIRE(spec);
  CHECK(spec->table_name == "Orders");
  CHECK(spec->url == "http://localhost:9000/2015-03-31/functions/function/invocations");
  CHECK(spec->name == "Orders=http://localhost:9000/2015-03-31/functions/function/invocations");
  CHECK(spec->batch_size == 100);
  CHECK(spec->batching_window_seconds == 0);
  CHECK_FALSE(spec->start_at_latest);
  CHECK(spec->retry_attempts == -1);
  CHECK(spec->max_record_age_seconds == -1);
  CHECK_FALSE(spec->bisect_on_error);
  CHECK_FALSE(spec->report_batch_item_failures);
  CHECK(spec->filters.empty());
  CHECK(spec->on_failure.empty());
  CHECK(spec->function_name == "stream-trigger");
}

TEST_CASE("Every setting, and patterns with commas") {
  std::string problem;
  auto spec = ParseStreamTrigger(
      "Orders=https://h:1,batch-size=10,maximum-batching-window-in-seconds=5,"
      "starting-position=LATEST,maximum-retry-attempts=3,maximum-record-age-in-seconds=60,"
      "bisect-batch-on-function-error=true,function-response-types=ReportBatchItemFailures,"
      R"(filter={"eventName":["INSERT","MODIFY"]},filter={"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"a,}"}]}}}},)"
      "on-failure=/tmp/failed.jsonl,function-name=orders",
      problem);
  REQUIRE(spec);
  CHECK(spec->name == "Orders=https://h:1");
  CHECK(spec->batch_size == 10);
  CHECK(spec->batching_window_seconds == 5);
  CHECK(spec->start_at_latest);
  CHECK(spec->retry_attempts == 3);
  CHECK(spec->max_record_age_seconds == 60);
  CHECK(spec->bisect_on_error);
  CHECK(spec->report_batch_item_failures);
  CHECK(spec->filters ==
        std::vector<std::string>{R"({"eventName":["INSERT","MODIFY"]})",
                                 R"({"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"a,}"}]}}}})"});
  CHECK(spec->on_failure == "/tmp/failed.jsonl");
  CHECK(spec->function_name == "orders");
}

TEST_CASE("What a stream trigger refuses") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"Orders", "expected TABLE=URL[,NAME=VALUE...]"},
      {"ab=http://h",
       "expected a table name (3 to 255 of a-z, A-Z, 0-9, '_', '-', '.') before '='"},
      {"Orders=ftp://h", "expected the function's URL, http(s)://host[:port][/path], after '='"},
      {"Orders=http://h,batch-size=0", "batch-size: expected 1 to 10000, got '0'"},
      {"Orders=http://h,batch-size=10001", "batch-size: expected 1 to 10000, got '10001'"},
      {"Orders=http://h,maximum-batching-window-in-seconds=301",
       "maximum-batching-window-in-seconds: expected 0 to 300, got '301'"},
      {"Orders=http://h,starting-position=AT_TIMESTAMP",
       "starting-position: expected TRIM_HORIZON or LATEST, got 'AT_TIMESTAMP'"},
      {"Orders=http://h,maximum-retry-attempts=-2",
       "maximum-retry-attempts: expected -1 to 10000, got '-2'"},
      {"Orders=http://h,maximum-record-age-in-seconds=59",
       "maximum-record-age-in-seconds: expected -1 or 60 to 604800, got '59'"},
      {"Orders=http://h,bisect-batch-on-function-error=yes",
       "bisect-batch-on-function-error: expected true or false, got 'yes'"},
      {"Orders=http://h,function-response-types=Other",
       "function-response-types: expected ReportBatchItemFailures, got 'Other'"},
      {"Orders=http://h,filter=[1]", "filter: expected a JSON object, got '[1]'"},
      {R"(Orders=http://h,filter={"a":[1])", "filter: the '{' is not closed"},
      {"Orders=http://h,size=1",
       "unknown setting 'size' (batch-size, maximum-batching-window-in-seconds, "
       "starting-position, maximum-retry-attempts, maximum-record-age-in-seconds, "
       "bisect-batch-on-function-error, function-response-types, filter, on-failure, "
       "function-name)"},
      {"Orders=http://h,batch-size", "expected NAME=VALUE after ',', got 'batch-size'"},
      {"Orders=http://h\t", "expected no tabs or line ends"},
  };
  for (const auto& [text, why] : refused) {
    INFO(text);
    std::string problem;
    CHECK_FALSE(ParseStreamTrigger(text, problem));
    CHECK(problem == why);
  }
  std::string problem;
  std::string six = "Orders=http://h";
  for (int i = 0; i < 6; ++i) six += R"(,filter={"a":["b"]})";
  CHECK_FALSE(ParseStreamTrigger(six, problem));
  CHECK(problem == R"(filter: expected at most 5 filters, got '{"a":["b"]}')");
}

TEST_CASE("Stream triggers repeat and the flags replace DDBD_STREAM_TRIGGER") {
  auto parsed = ParseOptions(
      {"--stream-trigger", "Orders=http://a", "--stream-trigger=Items=http://b"},
      [](const char* name) -> const char* {
        return std::string_view(name) == "DDBD_STREAM_TRIGGER" ? "Env=http://c" : nullptr;
      });
  REQUIRE(parsed.options);
  REQUIRE(parsed.options->stream_triggers.size() == 2);
  CHECK(parsed.options->stream_triggers[0].table_name == "Orders");
  CHECK(parsed.options->stream_triggers[1].table_name == "Items");
  auto from_env = ParseOptions({}, [](const char* name) -> const char* {
    return std::string_view(name) == "DDBD_STREAM_TRIGGER" ? "Env=http://c" : nullptr;
  });
  REQUIRE(from_env.options);
  REQUIRE(from_env.options->stream_triggers.size() == 1);
  CHECK(from_env.options->stream_triggers[0].table_name == "Env");
  auto bad = ParseOptions({"--stream-trigger", "Orders"},
                          [](const char*) -> const char* { return nullptr; });
  CHECK_FALSE(bad.options);
  CHECK(bad.error == "--stream-trigger: expected TABLE=URL[,NAME=VALUE...]");
}

}  // namespace
}  // namespace ddbd
