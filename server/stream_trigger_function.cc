#include "server/stream_trigger_function.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

#include "protocol/event_filter.h"
#include "protocol/lambda_event.h"
#include "server/tools/http_client.h"

namespace ddbd {
namespace {

// Lambda's longest function timeout is 15 minutes; a local handler answering in a minute is
// plenty, and a trigger's thread serves every trigger of its engine.
constexpr int kInvokeTimeoutMs = 60'000;

std::string NewUuid() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) std::memset(bytes, 0, sizeof bytes);
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 15];
  }
  return text;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class HttpFunction final : public StreamTriggerFunction {
 public:
  HttpFunction(const StreamTriggerSpec& spec, Endpoint endpoint, std::string path,
               std::vector<std::unique_ptr<EventFilter>> filters, std::string function_arn)
      : client_(std::move(endpoint), true, kInvokeTimeoutMs),
        path_(std::move(path)),
        report_batch_item_failures_(spec.report_batch_item_failures),
        filters_(std::move(filters)),
        on_failure_(spec.on_failure),
        function_arn_(std::move(function_arn)) {
    client_.CancelWhen(&stopping_);
  }

  void Stop() override { stopping_ = true; }

  bool Selects(const StreamTriggerBatch& batch, const StreamRecord& record) override {
    if (filters_.empty()) return true;
    std::string text = StreamTriggerRecordJson(record, batch);
    rapidjson::Document document;
    document.Parse(text.data(), text.size());
    if (document.HasParseError()) return false;
    for (const auto& filter : filters_) {
      if (filter->Matches(document)) return true;
    }
    return false;
  }

  StreamTriggerOutcome Invoke(const StreamTriggerBatch& batch) override {
    const std::string event = EventOf(batch);
    HttpAnswer answer;
    std::string problem;
    const std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Type", "application/json"}};
    if (!client_.Send("POST", path_, headers, event, answer, problem)) {
      StreamTriggerOutcome outcome;
      outcome.result = StreamTriggerOutcome::Result::kUnreachable;
      outcome.message = "the function could not be reached: " + problem;
      return outcome;
    }
    bool function_error = false;
    for (const auto& [name, value] : answer.headers) {
      if (name == "x-amz-function-error") function_error = true;
    }
    return ReadFunctionAnswer(answer.status, function_error, std::move(answer.body),
                              report_batch_item_failures_, batch);
  }

  void Discard(const StreamTriggerBatch& batch, StreamTriggerDiscard why, int invocations,
               const StreamTriggerOutcome& last) override {
    if (on_failure_.empty() || batch.records.empty()) return;
    DiscardRecord discard;
    discard.request_id = NewUuid();
    discard.function_arn = function_arn_;
    discard.why = why;
    discard.invocations = invocations;
    discard.now_ms = NowMs();
    const std::string line = StreamTriggerDiscardJson(discard, batch, last, EventOf(batch)) + "\n";
    // Appended and synced: a record of what was given up outlives a crash.
    const int fd = ::open(on_failure_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ::fsync(fd);
    ::close(fd);
  }

 private:
  static std::string EventOf(const StreamTriggerBatch& batch) {
    std::vector<std::string> records;
    records.reserve(batch.records.size());
    for (const StreamRecord& record : batch.records) {
      records.push_back(StreamTriggerRecordJson(record, batch));
    }
    return StreamTriggerEvent(records);
  }

  std::atomic<bool> stopping_ = false;
  HttpClient client_;
  const std::string path_;
  const bool report_batch_item_failures_;
  const std::vector<std::unique_ptr<EventFilter>> filters_;
  const std::string on_failure_;
  const std::string function_arn_;
};

}  // namespace

std::shared_ptr<StreamTriggerFunction> NewStreamTriggerFunction(const StreamTriggerSpec& spec,
                                                                const std::string& region,
                                                                const std::string& account_id,
                                                                std::string& problem) {
  const std::optional<Endpoint> endpoint = Endpoint::Parse(spec.url);
  if (!endpoint) {
    problem = "expected http(s)://host[:port][/path], got " + spec.url;
    return nullptr;
  }
  const size_t host_start = spec.url.find("://") + 3;
  const size_t slash = spec.url.find('/', host_start);
  std::string path = slash == std::string::npos ? "/" : spec.url.substr(slash);
  std::vector<std::unique_ptr<EventFilter>> filters;
  for (const std::string& pattern : spec.filters) {
    std::string why;
    auto filter = EventFilter::Compile(pattern, why);
    if (!filter) {
      problem = "filter " + pattern + ": " + why;
      return nullptr;
    }
    filters.push_back(std::move(filter));
  }
  return std::make_shared<HttpFunction>(
      spec, *endpoint, std::move(path), std::move(filters),
      "arn:aws:lambda:" + region + ":" + account_id + ":function:" + spec.function_name);
}

StreamTriggerSettings StreamTriggerSettingsOf(const StreamTriggerSpec& spec,
                                              std::shared_ptr<StreamTriggerFunction> function) {
  StreamTriggerSettings settings;
  settings.name = spec.name;
  settings.table_name = spec.table_name;
  settings.batch_size = spec.batch_size;
  settings.batching_window_ms = int64_t{spec.batching_window_seconds} * 1000;
  settings.start_at_latest = spec.start_at_latest;
  settings.retry_attempts = spec.retry_attempts;
  settings.max_record_age_ms =
      spec.max_record_age_seconds < 0 ? -1 : int64_t{spec.max_record_age_seconds} * 1000;
  settings.bisect_on_error = spec.bisect_on_error;
  settings.function = std::move(function);
  return settings;
}

}  // namespace ddbd
