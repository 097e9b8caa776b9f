// The structured access log (--access-log FILE, or "-" for standard output): one JSON line per
// DynamoDB request, written when it is answered:
//   {"time":"2026-11-25T22:40:01.123Z","request_id":"...","operation":"PutItem","table":"T",
//    "status":200,"error":"","latency_ms":0.041,"consumed_capacity":1}
// consumed_capacity appears when the request asked for ReturnConsumedCapacity (it is what the
// answer reports). Lines are written whole under a lock and flushed, so `tail -f` and log
// shippers see each request as it ends.
//
// Thread safety: Write may be called from any thread.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

struct AccessRecord {
  int64_t time_ms = 0;  // epoch
  std::string_view request_id;
  std::string_view operation;
  std::string_view table;
  int status = 200;
  std::string_view error;  // empty on success
  double latency_ms = 0;
  std::optional<double> consumed_capacity;
};

class AccessLog {
 public:
  // Opens `path` for appending ("-": standard output). Null with a reason in `error`.
  static std::unique_ptr<AccessLog> Open(const std::string& path, std::string& error);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void Write(const AccessRecord& record);
  // One record as its line, without the newline.
  static std::string Line(const AccessRecord& record);

 private:
  AccessLog(std::FILE* file, bool owned) : file_(file), owned_(owned) {}
  std::mutex mutex_;
  std::FILE* file_;
  bool owned_;
};

}  // namespace ddbd
