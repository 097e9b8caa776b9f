#include "server/router.h"

#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>

#include "engine/api/contributor_insights.h"
#include "protocol/ascii.h"
#include "protocol/request_summary.h"
#include "server/console_assets.h"
#include "server/crc32.h"
#include "server/local_origins.h"
#include "server/request_id.h"

namespace ddbd {
namespace {

constexpr std::string_view kAmzJson = "application/x-amz-json-1.0";
constexpr std::string_view kJson = "application/json";
constexpr std::string_view kContributorInsightsPath = "/_ddbd/contributor-insights/";

// The media type without parameters ("; charset=..."), to be matched in any case (a lower-cased
// copy was a heap allocation and a libc call per character, every request).
std::string_view MediaType(std::string_view content_type) {
  return TrimSpaces(content_type.substr(0, content_type.find(';')));
}

// `content_type` has static storage (the head is written after the router returns).
void AddStandardHeaders(HttpResponse& response, std::string_view content_type) {
  response.content_type = content_type;
  response.sends_request_id = true;
  response.crc32 = Crc32(response.body);
}

std::vector<std::string> SplitOrigins(const std::string& cors) {
  std::vector<std::string> origins;
  size_t start = 0;
  while (start <= cors.size()) {
    size_t end = cors.find(',', start);
    if (end == std::string::npos) end = cors.size();
    std::string origin = cors.substr(start, end - start);
    origin.erase(0, origin.find_first_not_of(' '));
    origin.erase(origin.find_last_not_of(' ') + 1);
    if (!origin.empty()) origins.push_back(origin);
    start = end + 1;
  }
  return origins;
}

// At most `limit` bytes of `text` with anything but printable ASCII, quotes and backslashes
// replaced by '?': safe inside a JSON string and a log line.
std::string PlainText(std::string_view text, size_t limit) {
  std::string plain(text.substr(0, limit));
  for (char& c : plain) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') c = '?';
  }
  return plain;
}

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Router::Router(const RequestHandler& handler, RouterOptions options)
    : handler_(handler),
      options_(std::move(options)),
      cors_origins_(SplitOrigins(options_.cors)),
      allowed_hosts_(SplitOrigins(options_.allowed_hosts)),
      authenticator_(options_.auth_keys),
      metrics_(options_.metrics) {}

void Router::LogAccess(const HttpResponse& response) const {
  AccessRecord record;
  record.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  record.request_id = response.request_id;
  record.operation = Metrics::OperationOf(response.target);
  record.table = response.table;
  record.status = response.status;
  record.error = Metrics::ErrorOf(response.status, response.body);
  record.latency_ms = static_cast<double>(SteadyNowNs() - response.started_ns) / 1e6;
  record.consumed_capacity = ConsumedCapacityUnits(response.body);
  options_.access_log->Write(record);
}

void Router::AddCorsHeaders(const HttpRequest& request, HttpResponse& response) const {
  if (request.origin.empty()) return;
  const bool any =
      std::find(cors_origins_.begin(), cors_origins_.end(), "*") != cors_origins_.end();
  // Pages on this machine (loopback origins, ddbd's own console) always; others when listed.
  const bool allowed =
      any || IsLoopbackOrigin(request.origin) || IsSameOrigin(request.origin, request.host) ||
      std::find(cors_origins_.begin(), cors_origins_.end(), request.origin) != cors_origins_.end();
  if (!allowed) return;
  response.headers.emplace_back("Access-Control-Allow-Origin",
                                any ? std::string("*") : std::string(request.origin));
  response.headers.emplace_back("Access-Control-Expose-Headers",
                                "x-amzn-RequestId,x-amz-crc32,x-amz-id-2");
  if (request.method == "OPTIONS") {
    if (!request.access_control_request_headers.empty()) {
      response.headers.emplace_back("Access-Control-Allow-Headers",
                                    std::string(request.access_control_request_headers));
    }
    if (!request.access_control_request_method.empty()) {
      response.headers.emplace_back("Access-Control-Allow-Methods",
                                    std::string(request.access_control_request_method));
    }
    response.headers.emplace_back("Access-Control-Max-Age", "172800");
  }
}

bool Router::HostAllowed(std::string_view host) const {
  // A request without a Host (HTTP/1.0) comes from no browser.
  if (!options_.loopback_only || host.empty() || IsLoopbackHost(host)) return true;
  for (const std::string& allowed : allowed_hosts_) {
    if (allowed == "*" || EqualsIgnoringCase(allowed, host)) return true;
  }
  return false;
}

void Router::ServeMetrics(const HttpRequest& request, HttpResponse& response) const {
  // With keys, table and namespace names (namespaces name access key ids) are the operator's:
  // an anonymous scrape gets the server's own series only.
  bool names = options_.auth_keys.empty();
  if (!names && !options_.metrics_token.empty()) {
    const std::string expected = "Bearer " + options_.metrics_token;
    names = request.authorization.size() == expected.size() &&
            CRYPTO_memcmp(request.authorization.data(), expected.data(), expected.size()) == 0;
  }
  response.body =
      metrics_->Render(names ? handler_.Statistics() : RequestHandler::NamedStatistics{});
  if (names && options_.replication_metrics) response.body += options_.replication_metrics();
  AddStandardHeaders(response, Metrics::kContentType);
}

HttpResponse Router::Route(const HttpRequest& request) const {
  HttpResponse response;
  std::promise<void> answered;
  const RouteDone done = [&answered] { answered.set_value(); };
  RouteAsync(request, response, done);
  answered.get_future().wait();
  return response;
}

void Router::ServeConsole(std::string_view path, HttpResponse& response) const {
  if (path == "/console") {
    // Relative URLs in the page resolve under /console/.
    response.status = 301;
    response.headers.emplace_back("Location", "/console/");
    AddStandardHeaders(response, "text/plain");
    return;
  }
  std::string_view name = path.substr(std::string_view("/console/").size());
  if (name.empty()) name = "index.html";
  const ConsoleAsset* asset = FindConsoleAsset(name);
  if (asset == nullptr) {
    response.status = 404;
    response.body = "Not found\n";
    AddStandardHeaders(response, "text/plain");
    return;
  }
  response.body = asset->body;
  // The page loads nothing but its own files and talks only to this server.
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Cache-Control", "no-cache");
  AddStandardHeaders(response, asset->content_type);
}

std::string Router::AdminSignatureProblem(const HttpRequest& request) const {
  if (!authenticator_.verifies()) return "";
  if (!Authenticator::CarriesSignature(request)) {
    return "the admin API needs a request signed with one of --auth-keys (Signature Version 4), "
           "as DynamoDB requests are";
  }
  // Real time, as for every signature: the admin clock's offset never reaches the date check.
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  Status checked = authenticator_.Check(request, now_ms);
  return checked.ok() ? "" : checked.error().message();
}

void Router::ServeContributorInsights(const HttpRequest& request, HttpResponse& response) const {
  auto refuse = [&response](int status, const std::string& message) {
    response.status = status;
    response.body = R"({"message":")" + PlainText(message, 2048) + "\"}";
  };
  const std::string_view table = request.path.substr(kContributorInsightsPath.size());
  const bool same_origin = request.origin == "http://" + std::string(request.host) ||
                           request.origin == "https://" + std::string(request.host);
  size_t top = 10;
  if (request.query.starts_with("top=")) {
    const std::string_view digits = request.query.substr(4);
    top = 0;
    for (char c : digits) {
      if (c < '0' || c > '9' || top > kInsightMaxContributors) {
        top = 0;
        break;
      }
      top = top * 10 + static_cast<size_t>(c - '0');
    }
  }
  if (request.method != "GET") {
    refuse(405,
           "GET /_ddbd/contributor-insights/<table> reads what its Contributor Insights "
           "rules report");
  } else if (!request.origin.empty() && !same_origin) {
    refuse(403,
           "Contributor Insights reports answer no page of another origin (this request came "
           "from " +
               std::string(request.origin.substr(0, 256)) + ")");
  } else if (table.empty() ||
             (table.find('/') != std::string_view::npos && !table.starts_with("arn:"))) {
    refuse(400, "name a table: GET /_ddbd/contributor-insights/<table name or ARN>");
  } else if (top < 1 || top > kInsightMaxContributors) {
    refuse(400, "top must be a whole number from 1 to " + std::to_string(kInsightMaxContributors));
  } else if (std::string problem = AdminSignatureProblem(request); !problem.empty()) {
    refuse(403, problem);
  } else {
    RequestInfo info;
    info.has_authorization = Authenticator::CarriesSignature(request);
    info.authorization = request.authorization;
    info.host = request.host;
    DispatchResult answer = handler_.ContributorInsightsReport(table, top, info);
    response.status = answer.http_status;
    response.body = std::move(answer.body);
  }
  response.headers.emplace_back("Cache-Control", "no-store");
  AddStandardHeaders(response, kJson);
}

void Router::ServeAdmin(const HttpRequest& request, HttpResponse& response) const {
  auto refuse = [&response](int status, const std::string& message) {
    response.status = status;
    response.body = R"({"message":")" + PlainText(message, 2048) + "\"}";
  };
  if (options_.admin_api == nullptr) {
    refuse(404, "the admin API is off: start ddbd with --admin-api to use " +
                    std::string(request.path.substr(0, 256)));
  } else if (!request.origin.empty()) {
    // Browsers send Origin with every cross-origin POST, also the "simple" ones no preflight
    // guards: a web page must never move the clock or delete items.
    refuse(403, "the admin API answers no browser page (this request came from " +
                    std::string(request.origin.substr(0, 256)) + ")");
  } else if (!options_.admin_any_caller && !request.peer_loopback) {
    refuse(403,
           "the admin API answers callers on this machine only; start ddbd with --admin-api any "
           "to accept others");
  } else if (std::string problem = AdminSignatureProblem(request); !problem.empty()) {
    refuse(403, problem);
  } else {
    AdminAnswer answer = options_.admin_api->Answer(request.method, request.path, request.body);
    response.status = answer.status;
    response.body = std::move(answer.body);
  }
  response.headers.emplace_back("Cache-Control", "no-store");
  AddStandardHeaders(response, kJson);
}

void Router::Finished(HttpResponse& response) const {
  if (metrics_ != nullptr || options_.access_log != nullptr) {
    const int64_t elapsed_ns = SteadyNowNs() - response.started_ns;
    if (metrics_ != nullptr) {
      metrics_->RecordRequest(response.target, response.status, response.body, elapsed_ns);
    }
  }
  (*response.done)();
}

void Router::RouteAsync(const HttpRequest& request, HttpResponse& response,
                        const RouteDone& done) const {
  // The caller's slot is reused from request to request: its header list keeps its room.
  response.status = 200;
  response.content_type = {};
  response.sends_request_id = false;
  response.content_encoding = {};
  response.crc32.reset();
  response.headers.clear();
  response.body.clear();
  response.table.clear();
  AssignRequestId(response.request_id);  // in the slot's own room
  const std::string& request_id = response.request_id;
  // DynamoDB's health check (GET /) reveals nothing and answers any name; everything else from a
  // name that is not this machine's is refused: a page that rebound its own name to 127.0.0.1
  // would otherwise be same-origin with ddbd.
  if (!HostAllowed(request.host) && !(request.method == "GET" && request.path == "/")) {
    response.status = 403;
    response.body =
        std::string(R"({"__type":"com.amazon.coral.service#AccessDeniedException",)") +
        "\"message\":\"ddbd listens on a loopback address and answers only loopback host names "
        "(localhost, 127.0.0.1, [::1]); this request was sent to '" +
        PlainText(request.host, 256) +
        "'. Start ddbd with --allowed-hosts NAME (or '*') to accept it.\"}";
    AddStandardHeaders(response, kAmzJson);
    return done();
  }
  if (request.path.starts_with(kContributorInsightsPath)) {
    ServeContributorInsights(request, response);
    return done();
  }
  if (request.path.starts_with("/_ddbd/") && request.path != "/_ddbd/health") {
    // Before CORS: the admin API never answers a browser page, so it sends no CORS headers.
    ServeAdmin(request, response);
    return done();
  }
  AddCorsHeaders(request, response);
  if (request.method == "OPTIONS" && !request.origin.empty()) {
    response.sends_request_id = true;
    return done();  // a CORS preflight: headers only
  }
  if (options_.dynamodb_local_root && (request.method == "GET" || request.method == "HEAD") &&
      request.path == "/") {
    response.status = 400;
    response.body =
        R"({"__type":"com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",)"
        R"("Message":"Request must contain either a valid (registered) AWS access key ID or X.509 )"
        R"(certificate."})";
    AddStandardHeaders(response, kAmzJson);
    return done();
  }
  if (request.method == "GET" && request.path == "/") {
    // DynamoDB's endpoint names itself by the host it was asked for, which is its own name.
    response.body = "healthy: " +
                    (request.host.empty() ? "dynamodb." + options_.region + ".amazonaws.com"
                                          : std::string(request.host)) +
                    " ";
    AddStandardHeaders(response, "text/plain");
    return done();
  }
  if (request.method == "GET" && request.path == "/_ddbd/health") {
    // ddbd's own health, always on: 503 with the reason while writes cannot be taken.
    const std::string problem = handler_.Unhealthy();
    response.status = problem.empty() ? 200 : 503;
    response.body = problem.empty()
                        ? R"({"status":"healthy"})"
                        : R"({"status":"failing","reason":")" + PlainText(problem, 1024) + "\"}";
    AddStandardHeaders(response, kJson);
    return done();
  }
  if (request.method == "GET" && request.path == "/metrics" && metrics_ != nullptr) {
    ServeMetrics(request, response);
    return done();
  }
  if (options_.console && request.method == "GET" &&
      (request.path == "/console" || request.path.starts_with("/console/"))) {
    ServeConsole(request.path, response);
    return done();
  }
  response.target = request.amz_target;
  response.done = &done;
  if (metrics_ != nullptr || options_.access_log != nullptr) response.started_ns = SteadyNowNs();
  const std::string_view media_type = MediaType(request.content_type);
  const bool json = EqualsIgnoringCase(media_type, kJson);
  // DynamoDB answers anything but a JSON POST to / with a bare 404 UnknownOperationException.
  if (request.method != "POST" || request.path != "/" ||
      (!request.body.empty() && !json && !EqualsIgnoringCase(media_type, kAmzJson))) {
    response.status = 404;
    response.body = "<UnknownOperationException/>\n";
    AddStandardHeaders(response, kAmzJson);
    return Finished(response);
  }
  if (request.body_unreadable) {
    // UNCONFIRMED body: DynamoDB answers an unsupported or broken Content-Encoding with HTTP 500
    // and applies nothing (measured); its error body is not recorded.
    DispatchResult failure = Dispatcher::InternalServerError();
    response.status = failure.http_status;
    response.body = std::move(failure.body);
    AddStandardHeaders(response, kAmzJson);
    return Finished(response);
  }
  // DynamoDB answers in the content type it was asked in. All but the checksum is known now.
  response.content_type = json ? kJson : kAmzJson;
  response.sends_request_id = true;
  // Two pointers: small enough for std::function to hold without allocating.
  HttpResponse* const answer = &response;
  response.compress = ChooseResponseEncoding(request.accept_encoding);
  const DispatchDone finish = [this, answer](DispatchResult result) {
    answer->status = result.http_status;
    answer->body = std::move(result.body);
    // Read before compression: the log reports what the answer says.
    if (options_.access_log != nullptr) LogAccess(*answer);
    // Successful answers only: DynamoDB sends its errors as they are.
    if (answer->compress != ResponseEncoding::kNone && answer->status == 200 &&
        answer->body.size() > kCompressAboveBytes) {
      std::string compressed = Compress(answer->body, answer->compress);
      if (!compressed.empty()) {
        answer->body = std::move(compressed);
        answer->content_encoding = EncodingName(answer->compress);
      }
    }
    // Over the bytes sent, compressed or not, as SDKs check it.
    answer->crc32 = Crc32(answer->body);
    Finished(*answer);
  };
  RequestInfo info;
  info.has_authorization = Authenticator::CarriesSignature(request);
  if (info.has_authorization) {
    // The clock is read only when signatures are verified.
    const int64_t now_ms = !authenticator_.verifies()
                               ? 0
                               : std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
    info.authentication = authenticator_.Check(request, now_ms);
  }
  info.authorization = request.authorization;
  info.host = request.host;
  // Read before the handler takes the body (and parses it in place).
  if (options_.access_log != nullptr) response.table = RequestTables(request.body);
  std::string body =
      request.body_owner != nullptr ? std::move(*request.body_owner) : std::string(request.body);
  try {
    handler_.HandleAsync(request.amz_target, std::move(body), info, finish);
  } catch (const std::exception& e) {
    // The handler throws only before it answers.
    spdlog::error("request {} ({}) failed: {}", request_id, request.amz_target, e.what());
    finish(Dispatcher::InternalServerError());
  }
}

}  // namespace ddbd
