// HTTP-level handling of one request: health check, metrics, the web console, CORS, method and
// content-type checks, dispatch, and the response headers every DynamoDB answer carries
// (Content-Type, x-amzn-RequestId, x-amz-crc32). Also the one catch-all that turns an unexpected
// exception into InternalServerError while the server keeps serving.
//
// Thread safety: Route may be called concurrently.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "protocol/dispatcher.h"
#include "server/access_log.h"
#include "server/admin_api.h"
#include "server/authenticator.h"
#include "server/http_types.h"
#include "server/metrics.h"

namespace ddbd {

struct RouterOptions {
  std::string region = "us-east-1";
  // Origins a browser page may call from, comma-separated, besides loopback origins and the page
  // ddbd itself served (always allowed); "*" allows any.
  std::string cors = {};
  // ddbd listens on a loopback address: requests must name it by a loopback Host (localhost,
  // 127.0.0.0/8, [::1]) or one of `allowed_hosts` (comma-separated; "*" allows any).
  bool loopback_only = false;
  std::string allowed_hosts = {};
  // With auth_keys, /metrics names tables and namespaces only to a scrape that brings this
  // token as "Authorization: Bearer <token>" (empty: to none); without auth_keys, to any.
  std::string metrics_token = {};
  // Access key id -> secret: requests must be signed with one of them (Signature Version 4).
  // Empty: any well-formed signature is accepted.
  std::map<std::string, std::string> auth_keys = {};
  // Counts every DynamoDB request and serves GET /metrics (null: neither). Outlives the router.
  Metrics* metrics = nullptr;
  // One line per DynamoDB request (null: none). Outlives the router.
  AccessLog* access_log = nullptr;
  bool console = true;  // serve the web console at /console
  // Started with DynamoDB Local's flags: GET and HEAD / answer as DynamoDB Local does (HTTP 400,
  // MissingAuthenticationToken), which its tooling waits for; else as DynamoDB does.
  bool dynamodb_local_root = false;
  // The admin API under /_ddbd/ (null: off, and its paths answer 404 saying so). Outlives the
  // router. Callers on loopback only unless `admin_any_caller`; never a browser page (a request
  // with an Origin); a valid signature when auth_keys are set.
  const AdminApi* admin_api = nullptr;
  bool admin_any_caller = false;
  // Global tables' replication figures for /metrics (server/replication.h), shown where table
  // names are (null: none).
  std::function<std::string()> replication_metrics = nullptr;
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
  // The Host check of a loopback-bound server (RouterOptions::loopback_only).
  bool HostAllowed(std::string_view host) const;
  // GET /metrics; per-table series only for a scrape allowed to see table names.
  void ServeMetrics(const HttpRequest& request, HttpResponse& response) const;
  // The answer is complete: counted, logged, and handed back.
  void Finished(HttpResponse& response) const;
  void LogAccess(const HttpResponse& response) const;
  // Any path under /_ddbd/ but /_ddbd/health: who may call, then the admin API's answer.
  void ServeAdmin(const HttpRequest& request, HttpResponse& response) const;
  // Under --auth-keys, why the request's signature does not pass ("" when it does, or without
  // keys).
  std::string AdminSignatureProblem(const HttpRequest& request) const;
  // GET /_ddbd/contributor-insights/<table>[?top=N]: what the table's Contributor Insights rules
  // report (protocol/insights_report.h), from the database the request's signature names; under
  // --auth-keys only for a valid signature, as a Scan would need. Same-origin pages only.
  void ServeContributorInsights(const HttpRequest& request, HttpResponse& response) const;
  // GET /console (a redirect to /console/) and the console's files under /console/.
  void ServeConsole(std::string_view path, HttpResponse& response) const;

  const RequestHandler& handler_;
  RouterOptions options_;
  std::vector<std::string> cors_origins_;
  std::vector<std::string> allowed_hosts_;
  Authenticator authenticator_;
  Metrics* const metrics_;
};

}  // namespace ddbd
