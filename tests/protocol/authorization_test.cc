// The Authorization header's parts, as SDKs send them, and what is not a credential scope.
#include "protocol/authorization.h"

#include <catch2/catch.hpp>

namespace ddbd {
namespace {

TEST_CASE("A Signature Version 4 header's credential scope, signed headers and signature") {
  auto parsed = ParseAuthorization(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261124/eu-west-2/dynamodb/aws4_request, "
      "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=abc123");
  REQUIRE(parsed.has_value());
  CHECK(parsed->algorithm == "AWS4-HMAC-SHA256");
  CHECK(parsed->access_key_id == "AKIDEXAMPLE");
  CHECK(parsed->date == "20261124");
  CHECK(parsed->region == "eu-west-2");
  CHECK(parsed->service == "dynamodb");
  CHECK(parsed->signed_headers == "content-type;host;x-amz-date;x-amz-target");
  CHECK(parsed->signature == "abc123");
  // Commas without spaces (botocore), leading spaces, the parts in another order.
  parsed = ParseAuthorization(
      "  AWS4-HMAC-SHA256 SignedHeaders=host,Signature=ff,Credential=k/d/r/s/aws4_request");
  REQUIRE(parsed.has_value());
  CHECK(parsed->access_key_id == "k");
  CHECK(parsed->region == "r");
  CHECK(parsed->signature == "ff");
  // Spaces alone, as AWS takes them (behaviours-to-match A3).
  parsed = ParseAuthorization(
      "AWS4-HMAC-SHA256 Credential=someid/2/3/4/aws4_request SignedHeaders=x-amz-date;host "
      "Signature=123");
  REQUIRE(parsed.has_value());
  CHECK(parsed->access_key_id == "someid");
  CHECK(parsed->signed_headers == "x-amz-date;host");
  CHECK(parsed->signature == "123");
}

TEST_CASE("What is not an SigV4 credential scope") {
  for (const char* header :
       {"", "Basic dXNlcjpwYXNz", "AWS4-HMAC-SHA256", "AWS4-HMAC-SHA256 Credential=",
        "AWS4-HMAC-SHA256 Credential=x/y",  // the harness's shortest form
        "AWS4-HMAC-SHA256 Credential=k/d/r/s/other",
        "AWS4-HMAC-SHA256 Credential=/d/r/s/aws4_request",
        "AWS4-HMAC-SHA256 Credential=k/d//s/aws4_request", "AWS4-HMAC-SHA256 Signature=ab"}) {
    INFO(header);
    CHECK_FALSE(ParseAuthorization(header).has_value());
  }
}

}  // namespace
}  // namespace ddbd
