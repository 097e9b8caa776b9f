#include "server/access_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "server/json_line.h"

namespace ddbd {
namespace {

void AppendField(std::string& out, std::string_view name, std::string_view value) {
  out.append(",\"").append(name).append("\":\"");
  AppendJsonEscaped(out, value);
  out += '"';
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
  std::string line = "{\"time\":\"" + UtcTimestamp(record.time_ms) + "\"";
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
