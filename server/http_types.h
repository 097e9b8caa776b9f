// Plain HTTP request/response values passed between the Beast session and the router, so the
// router (and its tests) never include Beast.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/content_encoding.h"

namespace ddbd {

// Every value of a header by name, for the headers a signature covers.
class HeaderSource {
 public:
  virtual ~HeaderSource() = default;
  // Appends each value of the header `name` (any case), in the order sent.
  virtual void Values(std::string_view name, std::vector<std::string_view>& out) const = 0;
};

struct HttpRequest {
  std::string_view method;  // "POST", "GET", "OPTIONS", ...
  std::string_view path;
  std::string_view query;  // after '?', as sent
  std::string_view host;   // Host
  std::string_view content_type;
  std::string_view amz_target;            // X-Amz-Target
  std::string_view authorization;         // Authorization
  std::string_view amz_date;              // X-Amz-Date
  const HeaderSource* headers = nullptr;  // all of them; null when there is no signature to check
  std::string_view origin;                // Origin (CORS)
  // The client connected from a loopback address (127.0.0.0/8, ::1, or ::ffff:127.x.x.x).
  bool peer_loopback = false;
  std::string_view access_control_request_headers;
  std::string_view access_control_request_method;
  std::string_view accept_encoding;  // Accept-Encoding
  std::string_view body;             // decoded when it was sent compressed
  // The string `body` views, when the router may take it (moved, not copied) for the handler,
  // which parses it in place; null when `body` must be copied.
  std::string* body_owner = nullptr;
  // The body's bytes as they arrived, before any Content-Encoding was decoded: what a signature
  // covers. Empty means the same as `body` (nothing was decoded).
  std::string_view body_as_sent;
  // Sent with a Content-Encoding that is not supported, or not valid for its encoding: answered
  // with HTTP 500 and never dispatched.
  bool body_unreadable = false;
};

struct HttpResponse {
  int status = 200;
  // DynamoDB's own headers, which nearly every answer sends, have places of their own (as
  // strings in `headers` they cost three heap allocations an answer: the name x-amzn-RequestId,
  // the content type and the id are past the short-string size). The head writes them after
  // `headers`, in this order, each when set.
  std::string_view content_type;      // Content-Type: text with static storage
  bool sends_request_id = false;      // x-amzn-RequestId: `request_id`
  std::string_view content_encoding;  // Content-Encoding: text with static storage
  std::optional<uint32_t> crc32;      // x-amz-crc32, in decimal
  // Any other headers, first. Names are string literals.
  std::vector<std::pair<std::string_view, std::string>> headers;
  std::string body;
  // The request's Accept-Encoding allows it: a successful answer over 4 KB is compressed.
  ResponseEncoding compress = ResponseEncoding::kNone;
  // The router's record of the request being answered, for metrics and the access log: views
  // into the request, valid until the router's caller is told the answer is ready.
  std::string_view target;
  std::string table;  // the tables the request names (RequestTables), for the access log
  std::string request_id;
  int64_t started_ns = 0;  // steady clock
  const std::function<void()>* done = nullptr;
};

}  // namespace ddbd
