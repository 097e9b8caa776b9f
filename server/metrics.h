// Prometheus metrics (GET /metrics): what the server counts for each request (by operation:
// requests, errors by type, latency) and for connections, rendered with what each database
// reports at scrape time (engine/api/statistics.h: tables, indexes, consumed capacity, Time to Live
// deletions, stream records, the log and checkpoints). Counting a request is a few relaxed atomic
// additions; an error also takes a mutex. Rendering reads counters and never stops requests.
//
// Thread safety: any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "engine/api/statistics.h"
#include "protocol/dispatcher.h"

namespace ddbd {

class Metrics {
 public:
  // One DynamoDB request answered: `target` its X-Amz-Target, `body` the answer (an error's
  // __type is read from it when `http_status` is not 200), `nanoseconds` from request to answer.
  void RecordRequest(std::string_view target, int http_status, std::string_view body,
                     int64_t nanoseconds);
  void ConnectionOpened();
  void ConnectionClosed();
  // A connection dropped because its client did not take its answer and the answer budget
  // (--answer-buffer-bytes) was spent.
  void ConnectionDropped() { dropped_connections_.fetch_add(1, std::memory_order_relaxed); }

  // The Prometheus text exposition format (version 0.0.4), with `databases`' figures.
  std::string Render(const RequestHandler::NamedStatistics& databases) const;

  // The operation an X-Amz-Target names ("GetItem", "GetRecords"), or "unknown" for anything
  // DynamoDB does not serve (so clients cannot make up label values).
  static std::string_view OperationOf(std::string_view target);
  // An error answer's type without its namespace ("ValidationException"); "unknown" if the body
  // has none.
  static std::string_view ErrorTypeOf(std::string_view body);
  // An answer's error type, as metrics and the access log name it: empty for HTTP 200,
  // UnknownOperationException for the router's bare 404, else ErrorTypeOf.
  static std::string_view ErrorOf(int http_status, std::string_view body);

  // A label value as the text format writes it: backslash, quote and newline escaped.
  static std::string Escaped(std::string_view value);

  static constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

 private:
  static constexpr size_t kOperations = 62;  // the known operations, then "unknown"
  struct Operation {
    std::atomic<uint64_t> requests = 0;
    LatencyHistogram latency;
  };
  std::array<Operation, kOperations + 1> operations_;
  mutable std::mutex errors_mutex_;
  std::map<std::pair<std::string_view, std::string>, uint64_t> errors_;  // (operation, type)
  std::atomic<int64_t> open_connections_ = 0;
  std::atomic<uint64_t> connections_ = 0;
  std::atomic<uint64_t> dropped_connections_ = 0;
};

}  // namespace ddbd
