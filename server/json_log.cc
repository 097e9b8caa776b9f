#include "server/json_log.h"

#include <spdlog/formatter.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <memory>

namespace ddbd {
namespace {

void Append(spdlog::memory_buf_t& out, std::string_view text) {
  out.append(text.data(), text.data() + text.size());
}

void AppendEscaped(spdlog::memory_buf_t& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20 || byte >= 0x80) {
      const char escaped[] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 0xf]};
      out.append(escaped, escaped + sizeof escaped);
    } else {
      out.push_back(c);
    }
  }
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& message, spdlog::memory_buf_t& out) override {
    const auto since_epoch = message.time.time_since_epoch();
    const std::time_t seconds =
        std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char time[32];
    const size_t length = std::strftime(time, sizeof time, "%Y-%m-%dT%H:%M:%S", &utc);
    char fraction[8];
    std::snprintf(fraction, sizeof fraction, ".%03dZ", static_cast<int>(millis));
    Append(out, R"({"time":")");
    Append(out, std::string_view(time, length));
    Append(out, fraction);
    Append(out, R"(","level":")");
    const auto level = spdlog::level::to_string_view(message.level);
    Append(out, std::string_view(level.data(), level.size()));
    Append(out, R"(","message":")");
    AppendEscaped(out, std::string_view(message.payload.data(), message.payload.size()));
    Append(out, "\"}\n");
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

}  // namespace

void UseJsonLog() { spdlog::set_formatter(std::make_unique<JsonFormatter>()); }

}  // namespace ddbd
