#include "server/access_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>

namespace ddbd {
namespace {

// A JSON string's contents: quotes, backslashes and control characters escaped.
void AppendEscaped(std::string& out, std::string_view text) {
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
}

void AppendField(std::string& out, std::string_view name, std::string_view value) {
  out.append(",\"").append(name).append("\":\"");
  AppendEscaped(out, value);
  out += '"';
}

std::string Timestamp(int64_t time_ms) {
  const std::time_t seconds = static_cast<std::time_t>(time_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  const size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  std::snprintf(text + length, sizeof text - length, ".%03dZ", static_cast<int>(time_ms % 1000));
  return text;
}

}  // namespace

std::unique_ptr<AccessLog> AccessLog::Open(const std::string& path, std::string& error) {
  if (path == "-") return std::unique_ptr<AccessLog>(new AccessLog(stdout, false));
  std::FILE* file = std::fopen(path.c_str(), "a");
  if (file == nullptr) {
    error = "cannot open --access-log " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<AccessLog>(new AccessLog(file, true));
}

AccessLog::~AccessLog() {
  if (owned_) std::fclose(file_);
}

std::string AccessLog::Line(const AccessRecord& record) {
  std::string line = "{\"time\":\"" + Timestamp(record.time_ms) + "\"";
  AppendField(line, "request_id", record.request_id);
  AppendField(line, "operation", record.operation);
  AppendField(line, "table", record.table);
  line += ",\"status\":" + std::to_string(record.status);
  AppendField(line, "error", record.error);
  char number[40];
  std::snprintf(number, sizeof number, "%.3f", record.latency_ms);
  line.append(",\"latency_ms\":").append(number);
  if (record.consumed_capacity) {
    std::snprintf(number, sizeof number, "%g", *record.consumed_capacity);
    line.append(",\"consumed_capacity\":").append(number);
  }
  line += '}';
  return line;
}

void AccessLog::Write(const AccessRecord& record) {
  std::string line = Line(record);
  line += '\n';
  std::lock_guard lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace ddbd
