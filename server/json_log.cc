#include "server/json_log.h"

#include <spdlog/formatter.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <string>

#include "server/json_line.h"

namespace ddbd {
namespace {

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& message, spdlog::memory_buf_t& out) override {
    const int64_t time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(message.time.time_since_epoch())
            .count();
    const auto level = spdlog::level::to_string_view(message.level);
    std::string line = R"({"time":")" + UtcTimestamp(time_ms) + R"(","level":")";
    line.append(level.data(), level.size());
    line += R"(","message":")";
    AppendJsonEscaped(line, std::string_view(message.payload.data(), message.payload.size()));
    line += "\"}\n";
    out.append(line.data(), line.data() + line.size());
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

}  // namespace

void UseJsonLog() { spdlog::set_formatter(std::make_unique<JsonFormatter>()); }

}  // namespace ddbd
