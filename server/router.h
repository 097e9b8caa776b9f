// HTTP-level handling of one request: health check, CORS, method and content-type checks,
// dispatch, and the response headers every DynamoDB answer carries (Content-Type,
// x-amzn-RequestId, x-amz-crc32). Also the one catch-all that turns an unexpected exception into
// InternalServerError while the server keeps serving.
//
// Thread safety: Route may be called concurrently.
#pragma once

#include <string>
#include <vector>

#include "protocol/dispatcher.h"
#include "server/http_types.h"

namespace ddbd {

struct RouterOptions {
  std::string region = "us-east-1";
  std::string cors = "*";  // comma-separated allowed origins; "*" allows any; empty: no CORS
};

class Router {
 public:
  // `handler` (the Dispatcher in ddbd) must outlive the router.
  Router(const RequestHandler& handler, RouterOptions options);

  HttpResponse Route(const HttpRequest& request) const;

 private:
  void AddCorsHeaders(const HttpRequest& request, HttpResponse& response) const;
  HttpResponse Dispatch(const HttpRequest& request, const std::string& request_id) const;

  const RequestHandler& handler_;
  RouterOptions options_;
  std::vector<std::string> cors_origins_;
};

}  // namespace ddbd
