#include "config/stream_trigger_spec.h"

#include <charconv>

namespace ddbd {
namespace {

constexpr size_t kMaxFilters = 5;  // Lambda's quota of filters per event source mapping

bool Number(std::string_view text, int min, int max, int& out) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return false;
  }
  out = value;
  return true;
}

bool ValidTableName(std::string_view name) {
  if (name.size() < 3 || name.size() > 255) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

// The end of the value starting at `start`: the next ',' or, for a value starting with '{', the
// ',' after its matching '}' (braces in strings not counted). npos when the braces do not close.
size_t ValueEnd(std::string_view text, size_t start) {
  if (start >= text.size() || text[start] != '{') {
    const size_t comma = text.find(',', start);
    return comma == std::string_view::npos ? text.size() : comma;
  }
  int depth = 0;
  bool in_string = false;
  for (size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<StreamTriggerSpec> ParseStreamTrigger(std::string_view text, std::string& problem) {
  for (char c : text) {
    if (c == '\t' || c == '\n' || c == '\r') {
      problem = "expected no tabs or line ends";
      return std::nullopt;
    }
  }
  StreamTriggerSpec spec;
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    problem = "expected TABLE=URL[,NAME=VALUE...]";
    return std::nullopt;
  }
  spec.table_name = std::string(text.substr(0, equals));
  if (!ValidTableName(spec.table_name)) {
    problem = "expected a table name (3 to 255 of a-z, A-Z, 0-9, '_', '-', '.') before '='";
    return std::nullopt;
  }
  size_t end = text.find(',', equals + 1);
  if (end == std::string_view::npos) end = text.size();
  spec.url = std::string(text.substr(equals + 1, end - equals - 1));
  if (!spec.url.starts_with("http://") && !spec.url.starts_with("https://")) {
    problem = "expected the function's URL, http(s)://host[:port][/path], after '='";
    return std::nullopt;
  }
  spec.name = std::string(text.substr(0, end));
  size_t at = end;
  while (at < text.size()) {
    ++at;  // the ','
    const size_t name_end = text.find('=', at);
    if (name_end == std::string_view::npos) {
      problem = "expected NAME=VALUE after ',', got '" + std::string(text.substr(at)) + "'";
      return std::nullopt;
    }
    const std::string_view name = text.substr(at, name_end - at);
    const size_t value_end = ValueEnd(text, name_end + 1);
    if (value_end == std::string_view::npos) {
      problem = std::string(name) + ": the '{' is not closed";
      return std::nullopt;
    }
    const std::string_view value = text.substr(name_end + 1, value_end - name_end - 1);
    at = value_end;
    if (at < text.size() && text[at] != ',') {
      problem = std::string(name) + ": expected ',' after the pattern's '}'";
      return std::nullopt;
    }
    const auto bad = [&](std::string_view expected) {
      problem = std::string(name) + ": expected " + std::string(expected) + ", got '" +
                std::string(value) + "'";
      return std::nullopt;
    };
    if (name == "batch-size") {
      if (!Number(value, 1, 10'000, spec.batch_size)) return bad("1 to 10000");
    } else if (name == "maximum-batching-window-in-seconds") {
      if (!Number(value, 0, 300, spec.batching_window_seconds)) return bad("0 to 300");
    } else if (name == "starting-position") {
      if (value != "TRIM_HORIZON" && value != "LATEST") return bad("TRIM_HORIZON or LATEST");
      spec.start_at_latest = value == "LATEST";
    } else if (name == "maximum-retry-attempts") {
      if (!Number(value, -1, 10'000, spec.retry_attempts)) return bad("-1 to 10000");
    } else if (name == "maximum-record-age-in-seconds") {
      int age = 0;
      if (!Number(value, -1, 604'800, age) || (age >= 0 && age < 60)) {
        return bad("-1 or 60 to 604800");
      }
      spec.max_record_age_seconds = age;
    } else if (name == "bisect-batch-on-function-error") {
      if (value != "true" && value != "false") return bad("true or false");
      spec.bisect_on_error = value == "true";
    } else if (name == "function-response-types") {
      if (value != "ReportBatchItemFailures") return bad("ReportBatchItemFailures");
      spec.report_batch_item_failures = true;
    } else if (name == "filter") {
      if (!value.starts_with('{')) return bad("a JSON object");
      if (spec.filters.size() == kMaxFilters) return bad("at most 5 filters");
      spec.filters.emplace_back(value);
    } else if (name == "on-failure") {
      if (value.empty()) return bad("a file");
      spec.on_failure = std::string(value);
    } else if (name == "function-name") {
      if (value.empty() || value.size() > 64) return bad("a name of 1 to 64 characters");
      spec.function_name = std::string(value);
    } else {
      problem = "unknown setting '" + std::string(name) +
                "' (batch-size, maximum-batching-window-in-seconds, starting-position, "
                "maximum-retry-attempts, maximum-record-age-in-seconds, "
                "bisect-batch-on-function-error, function-response-types, filter, on-failure, "
                "function-name)";
      return std::nullopt;
    }
  }
  return spec;
}

}  // namespace ddbd
