// HTTP-level handling of one request: health check, CORS, method and content-type checks,
// dispatch, and the response headers every DynamoDB answer carries (Content-Type,
// x-amzn-RequestId, x-amz-crc32). Also the one catch-all that turns an unexpected exception into
// InternalServerError while the server keeps serving.
//
// Thread safety: Route may be called concurrently.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "protocol/dispatcher.h"
#include "server/authenticator.h"
#include "server/http_types.h"

namespace ddbd {

struct RouterOptions {
  std::string region = "us-east-1";
  std::string cors = "*";  // comma-separated allowed origins; "*" allows any; empty: no CORS
  // Access key id -> secret: requests must be signed with one of them (Signature Version 4).
  // Empty: any well-formed signature is accepted.
  std::map<std::string, std::string> auth_keys = {};
};

class Router {
 public:
  // `handler` (the Dispatcher in ddbd) must outlive the router.
  Router(const RequestHandler& handler, RouterOptions options);

  // Answers `request` into `response` and then calls `done`: at once, or, for a request the
  // handler finishes later, from the thread that finishes it. The request's views, `response`
  // and `done` must stay valid until then (the session owns all three, so answering needs no
  // allocation of its own).
  using RouteDone = std::function<void()>;
  void RouteAsync(const HttpRequest& request, HttpResponse& response, const RouteDone& done) const;
  // The same, waiting for the answer (tests; a handler that answers later blocks the caller).
  HttpResponse Route(const HttpRequest& request) const;

 private:
  void AddCorsHeaders(const HttpRequest& request, HttpResponse& response) const;

  const RequestHandler& handler_;
  RouterOptions options_;
  std::vector<std::string> cors_origins_;
  Authenticator authenticator_;
};

}  // namespace ddbd
