#include "server/router.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "server/crc32.h"

namespace ddbd {
namespace {

struct Fixture {
  ManualClock clock;
  Engine engine{{}, clock};
  Dispatcher dispatcher{engine};
  Router router{dispatcher, {"eu-west-1", "*"}};
};

// The value of header `name` the answer's head would carry.
std::string Header(const HttpResponse& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  if (name == "Content-Type" && !response.content_type.empty()) {
    return std::string(response.content_type);
  }
  if (name == "x-amzn-RequestId" && response.sends_request_id) return response.request_id;
  if (name == "Content-Encoding" && !response.content_encoding.empty()) {
    return std::string(response.content_encoding);
  }
  if (name == "x-amz-crc32" && response.crc32) return std::to_string(*response.crc32);
  return "<absent>";
}

HttpRequest Post(std::string_view body) {
  HttpRequest request;
  request.method = "POST";
  request.path = "/";
  request.content_type = "application/x-amz-json-1.0";
  request.amz_target = "DynamoDB_20120810.ListTables";
  request.authorization =
      "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/aws4_request, "
      "SignedHeaders=host;x-amz-date, Signature=00";
  request.amz_date = "20260101T000000Z";
  request.body = body;
  return request;
}

// The CRC-32 (IEEE, reflected) one bit at a time: slow and plainly right.
uint32_t BitwiseCrc32(std::string_view bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (const char c : bytes) {
    crc ^= static_cast<uint8_t>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST_CASE("Crc32 is the IEEE checksum") {
  CHECK(Crc32("123456789") == 0xCBF43926u);
  CHECK(Crc32("") == 0u);
  // Every length up to a few folding blocks and some long ones, as the vector code takes
  // different paths by length and alignment.
  std::string bytes;
  uint32_t seed = 12345;
  for (int i = 0; i < 70000; ++i) {
    seed = seed * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>(seed >> 16));
  }
  for (size_t size = 0; size <= 600; ++size) {
    const std::string_view part = std::string_view(bytes).substr(size % 7, size);
    INFO("size " << size);
    REQUIRE(Crc32(part) == BitwiseCrc32(part));
  }
  for (size_t size : {4095u, 4096u, 20000u, 65537u}) {
    CHECK(Crc32(std::string_view(bytes).substr(3, size)) ==
          BitwiseCrc32(std::string_view(bytes).substr(3, size)));
  }
}

TEST_CASE("Every DynamoDB answer carries content type, request id and a correct crc32") {
  Fixture f;
  HttpResponse response = f.router.Route(Post("{}"));
  CHECK(response.status == 200);
  CHECK(response.body == R"({"TableNames":[]})");
  CHECK(Header(response, "Content-Type") == "application/x-amz-json-1.0");
  CHECK(Header(response, "x-amzn-RequestId").size() == 52);
  CHECK(Header(response, "x-amz-crc32") == std::to_string(Crc32(response.body)));
}

TEST_CASE("application/json is accepted and mirrored, other content types are 404") {
  Fixture f;
  HttpRequest request = Post("{}");
  request.content_type = "application/json; charset=utf-8";
  HttpResponse json = f.router.Route(request);
  CHECK(json.status == 200);
  CHECK(Header(json, "Content-Type") == "application/json");
  // In any case, with spaces around it; the answer names it in DynamoDB's case.
  request.content_type = " Application/X-Amz-JSON-1.0 ;charset=UTF-8";
  HttpResponse amz = f.router.Route(request);
  CHECK(amz.status == 200);
  CHECK(Header(amz, "Content-Type") == "application/x-amz-json-1.0");
  request.content_type = "APPLICATION/JSON";
  CHECK(Header(f.router.Route(request), "Content-Type") == "application/json");
  for (const char* type : {"application/json-x", "application/jso", "application/x-amz-json-1.1"}) {
    request.content_type = type;
    CHECK(f.router.Route(request).status == 404);
  }
  request.content_type = "text/plain";
  HttpResponse refused = f.router.Route(request);
  CHECK(refused.status == 404);
  CHECK(refused.body == "<UnknownOperationException/>\n");
}

TEST_CASE("GET / is the health check, other methods and paths are 404") {
  Fixture f;
  HttpRequest request;
  request.method = "GET";
  request.path = "/";
  HttpResponse health = f.router.Route(request);
  CHECK(health.status == 200);
  CHECK(health.body == "healthy: dynamodb.eu-west-1.amazonaws.com ");
  request.host = "localhost:8000";  // DynamoDB echoes the Host it was asked by
  CHECK(f.router.Route(request).body == "healthy: localhost:8000 ");
  request.method = "PUT";
  CHECK(f.router.Route(request).status == 404);
}

TEST_CASE("Only POST / is the API: other paths are 404 and never dispatched") {
  Fixture f;
  HttpRequest request;
  request.method = "POST";
  request.content_type = "application/x-amz-json-1.0";
  request.amz_target = "DynamoDB_20120810.ListTables";
  request.body = "{}";
  for (std::string_view path : {"/tables", "//", "/?x", "/dynamodb"}) {
    request.path = path;
    HttpResponse response = f.router.Route(request);
    CHECK(response.status == 404);
    CHECK(response.body == "<UnknownOperationException/>\n");
  }
  request.path = "/";
  CHECK(f.router.Route(request).status != 404);  // dispatched
}

// A CORS preflight of a POST from `origin` asking for `headers`.
HttpRequest Preflight(std::string_view origin, std::string_view headers) {
  HttpRequest preflight;
  preflight.method = "OPTIONS";
  preflight.path = "/";
  preflight.origin = origin;
  preflight.access_control_request_headers = headers;
  preflight.access_control_request_method = "POST";
  return preflight;
}

TEST_CASE("CORS preflight and simple requests get the allow headers") {
  Fixture f;
  HttpRequest preflight = Preflight("http://localhost:3000", "content-type,x-amz-target");
  HttpResponse response = f.router.Route(preflight);
  CHECK(response.status == 200);
  CHECK(response.body.empty());
  CHECK(Header(response, "Access-Control-Allow-Origin") == "*");
  CHECK(Header(response, "Access-Control-Allow-Headers") == "content-type,x-amz-target");
  CHECK(Header(response, "Access-Control-Allow-Methods") == "POST");
  CHECK(Header(response, "Access-Control-Max-Age") == "172800");

  Router strict{f.dispatcher, {"us-east-1", "http://app.example"}};
  HttpRequest simple = Post("{}");
  simple.origin = "http://evil.example";
  CHECK(Header(strict.Route(simple), "Access-Control-Allow-Origin") == "<absent>");
  simple.origin = "http://app.example";
  CHECK(Header(strict.Route(simple), "Access-Control-Allow-Origin") == "http://app.example");
}

// Issue 34: by default only pages on this machine (loopback origins on any port, and the console
// ddbd served, whatever name it was reached by) may call ddbd from a browser.
TEST_CASE("By default CORS allows loopback origins and ddbd's own page only") {
  Fixture f;
  Router router{f.dispatcher, {}};
  HttpRequest preflight = Preflight("", "authorization,x-amz-target");
  preflight.host = "192.168.1.5:8000";
  for (const char* origin : {"http://localhost:3000", "http://localhost", "https://127.0.0.1:8443",
                             "http://[::1]:5173", "http://app.localhost:8080", "http://127.9.8.7",
                             "HTTP://LOCALHOST:1", "http://192.168.1.5:8000"}) {
    INFO(origin);
    preflight.origin = origin;
    HttpResponse response = router.Route(preflight);
    CHECK(Header(response, "Access-Control-Allow-Origin") == origin);
    CHECK(Header(response, "Access-Control-Allow-Headers") == "authorization,x-amz-target");
  }
  for (const char* origin :
       {"http://evil.example", "http://localhost.evil.example", "http://127.0.0.1.evil.example",
        "http://128.0.0.1", "null", "file://", "http://localhost:80x", "ftp://localhost",
        "http://[::2]", "http://192.168.1.5:8001", "http://evil.example#http://localhost"}) {
    INFO(origin);
    preflight.origin = origin;
    HttpResponse response = router.Route(preflight);
    CHECK(Header(response, "Access-Control-Allow-Origin") == "<absent>");
    CHECK(Header(response, "Access-Control-Allow-Headers") == "<absent>");
  }
}

TEST_CASE("Bound to loopback, only loopback Host names are answered") {
  Fixture f;
  RouterOptions options;
  options.loopback_only = true;
  options.allowed_hosts = "ddb.test:8000, Other.Test";
  Router router{f.dispatcher, options};
  HttpRequest request = Post("{}");
  for (const char* host :
       {"localhost:8000", "localhost", "127.0.0.1:8000", "127.1.2.3", "[::1]:8000", "[::1]",
        "api.localhost:1", "LOCALHOST.:8000", "ddb.test:8000", "other.test", ""}) {
    INFO(host);
    request.host = host;
    CHECK(router.Route(request).status == 200);
  }
  for (const char* host :
       {"evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.1.nip.io",
        "ddb.test", "ddb.test:8001", "[::2]:8000", "127.0.0.256", "localhost:x", "192.168.1.5:8000",
        "[::1", "127..0.1", "127.0.0", "127.0.0.1.5", "127.0.0.1000", "127.0.0.", "127"}) {
    INFO(host);
    request.host = host;
    HttpResponse refused = router.Route(request);
    CHECK(refused.status == 403);
    CHECK(refused.body.starts_with(
        R"({"__type":"com.amazon.coral.service#AccessDeniedException","message":"ddbd listens)"));
    CHECK(refused.body.find(std::string("sent to '") + host + "'") != std::string::npos);
  }
  // A preflight from such a name is refused too; DynamoDB's health check answers any name.
  HttpRequest preflight = Preflight("http://evil.example", "x-amz-target");
  preflight.host = "evil.example";
  CHECK(router.Route(preflight).status == 403);
  HttpRequest health;
  health.method = "GET";
  health.path = "/";
  health.host = "dynamodb.eu-west-2.amazonaws.com";
  CHECK(router.Route(health).status == 200);
  // Not bound to loopback (a container's 0.0.0.0): any name.
  Router open{f.dispatcher, {}};
  request.host = "evil.example";
  CHECK(open.Route(request).status == 200);
  RouterOptions any;
  any.loopback_only = true;
  any.allowed_hosts = "*";
  CHECK(Router(f.dispatcher, any).Route(request).status == 200);
}

struct FailingStore final : RequestHandler {
  std::string problem;
  DispatchResult Handle(std::string_view, std::string_view, const RequestInfo&) const override {
    return {};
  }
  std::string Unhealthy() const override { return problem; }
};

TEST_CASE("GET /_ddbd/health answers 200, or 503 with the reason while writes are refused") {
  FailingStore store;
  Router router{store, {}};
  HttpRequest request;
  request.method = "GET";
  request.path = "/_ddbd/health";
  HttpResponse healthy = router.Route(request);
  CHECK(healthy.status == 200);
  CHECK(healthy.body == R"({"status":"healthy"})");
  store.problem = "write-ahead log: cannot write db/1.log: \"No space\" left";
  HttpResponse failing = router.Route(request);
  CHECK(failing.status == 503);
  CHECK(
      failing.body ==
      R"({"status":"failing","reason":"write-ahead log: cannot write db/1.log: ?No space? left"})");
  CHECK(Header(failing, "Content-Type") == "application/json");
}

struct ThrowingHandler final : RequestHandler {
  DispatchResult Handle(std::string_view, std::string_view, const RequestInfo&) const override {
    throw std::runtime_error("boom");
  }
};

TEST_CASE("An unexpected exception becomes InternalServerError, and the next request is served") {
  ThrowingHandler handler;
  Router router{handler, {}};
  HttpResponse response = router.Route(Post("{}"));
  CHECK(response.status == 500);
  CHECK(response.body == R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError",)"
                         R"("message":"Internal server error"})");
  CHECK(Header(response, "x-amz-crc32") == std::to_string(Crc32(response.body)));
  CHECK(router.Route(Post("{}")).status == 500);  // still answering
}

}  // namespace
}  // namespace ddbd
