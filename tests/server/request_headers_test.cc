#include "server/request_headers.h"

#include <catch2/catch.hpp>

namespace ddbd {
namespace {

namespace http = boost::beast::http;

TEST_CASE("Request headers: read in one pass, a repeated one by its first line") {
  http::request<http::string_body> request;
  request.insert(http::field::host, "localhost:8000");
  request.insert("x-amz-target", "");  // empty: the next non-empty line counts
  request.insert(http::field::content_type, "application/x-amz-json-1.0");
  request.insert("X-AMZ-TARGET", "DynamoDB_20120810.GetItem");
  request.insert(http::field::authorization, "AWS4-HMAC-SHA256 first");
  request.insert(http::field::host, "evil.example");
  request.insert(http::field::authorization, "AWS4-HMAC-SHA256 second");
  request.insert(http::field::accept_encoding, "identity");
  request.insert(http::field::accept_encoding, "gzip");
  request.insert(http::field::content_encoding, "gzip");
  request.insert(http::field::content_encoding, "deflate");
  request.insert(http::field::origin, "");  // empty, yet the first line
  request.insert(http::field::origin, "http://elsewhere.example");
  request.insert("X-Amz-Date", "20260101T000000Z");
  request.insert("X-Amz-Datex", "no");
  request.insert(http::field::access_control_request_method, "POST");
  request.insert(http::field::access_control_request_headers, "x-amz-target");
  request.insert(http::field::user_agent, "test");
  HttpRequest plain;
  CHECK(ReadHeaders(request, plain) == "deflate");  // Content-Encoding: its last line
  CHECK(plain.host == "localhost:8000");
  CHECK(plain.content_type == "application/x-amz-json-1.0");
  CHECK(plain.amz_target == "DynamoDB_20120810.GetItem");
  CHECK(plain.authorization == "AWS4-HMAC-SHA256 first");
  CHECK(plain.accept_encoding == "identity");
  CHECK(plain.origin.empty());
  CHECK(plain.amz_date == "20260101T000000Z");
  CHECK(plain.access_control_request_method == "POST");
  CHECK(plain.access_control_request_headers == "x-amz-target");

  http::request<http::string_body> bare;
  HttpRequest none;
  CHECK(ReadHeaders(bare, none).empty());
  CHECK(none.host.empty());
  CHECK(none.amz_target.empty());
}

}  // namespace
}  // namespace ddbd
