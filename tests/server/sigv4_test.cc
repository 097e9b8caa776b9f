// Signature Version 4 below the socket (issue 22): AWS's published example, the canonical
// form's rules, and the authenticator's refusals with DynamoDB's texts.
#include "server/sigv4.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "server/authenticator.h"

namespace ddbd {
namespace {

// The example of AWS's Signature Version 4 documentation (IAM ListUsers).
TEST_CASE("AWS's published example signs to its published signature", "[sigv4]") {
  sigv4::CanonicalInput input;
  input.method = "GET";
  input.path = "/";
  input.query = "Version=2010-05-08&Action=ListUsers";
  input.headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
                   {"Host", "iam.amazonaws.com"},
                   {"X-Amz-Date", "20150830T123600Z"}};
  input.signed_headers = "content-type;host;x-amz-date";
  const std::string empty_body_hash = sigv4::Sha256Hex("");
  input.payload_hash = empty_body_hash;
  const std::string canonical = sigv4::CanonicalRequest(input);
  CHECK(canonical ==
        "GET\n/\nAction=ListUsers&Version=2010-05-08\n"
        "content-type:application/x-www-form-urlencoded; charset=utf-8\n"
        "host:iam.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
        "content-type;host;x-amz-date\n"
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sigv4::Sha256Hex(canonical) ==
        "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59");
  CHECK(sigv4::Signature("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20150830", "us-east-1", "iam",
                         "20150830T123600Z", canonical) ==
        "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
}

TEST_CASE("Header values are trimmed, inner spaces collapsed, repeats joined", "[sigv4]") {
  sigv4::CanonicalInput input;
  input.method = "POST";
  input.path = "/a b";
  input.headers = {{"X-Amz-Target", "  DynamoDB_20120810.GetItem  "},
                   {"x-custom", "a   b\t c"},
                   {"X-Custom", "second"}};
  input.signed_headers = "x-amz-target;x-custom";
  input.payload_hash = "h";
  CHECK(sigv4::CanonicalRequest(input) ==
        "POST\n/a%20b\n\nx-amz-target:DynamoDB_20120810.GetItem\nx-custom:a b c,second\n\n"
        "x-amz-target;x-custom\nh");
}

class Headers final : public HeaderSource {
 public:
  std::vector<std::pair<std::string, std::string>> values;
  void Values(std::string_view name, std::vector<std::string_view>& out) const override {
    for (const auto& [header, value] : values) {
      if (header == name) out.emplace_back(value);
    }
  }
};

using Keys = std::map<std::string, std::string>;

constexpr int64_t kNowMs = 1'764'000'000'000;  // 2025-11-24T16:00:00Z

// A request signed with `secret` at `amz_date`, as an SDK would send it.
struct Signed {
  Headers headers;
  std::string authorization;
  HttpRequest request;
  Signed(const std::string& key_id, const std::string& secret, const std::string& amz_date) {
    headers.values = {{"host", "localhost:8000"},
                      {"x-amz-date", amz_date},
                      {"x-amz-target", "DynamoDB_20120810.ListTables"}};
    request.method = "POST";
    request.path = "/";
    request.body = "{}";
    request.amz_date = headers.values[1].second;
    request.headers = &headers;
    sigv4::CanonicalInput input;
    input.method = "POST";
    input.path = "/";
    for (const auto& [name, value] : headers.values) input.headers.emplace_back(name, value);
    input.signed_headers = "host;x-amz-date;x-amz-target";
    const std::string payload = sigv4::Sha256Hex("{}");
    input.payload_hash = payload;
    const std::string date = amz_date.substr(0, 8);
    authorization = "AWS4-HMAC-SHA256 Credential=" + key_id + "/" + date +
                    "/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, "
                    "Signature=" +
                    sigv4::Signature(secret, date, "us-east-1", "dynamodb", amz_date,
                                     sigv4::CanonicalRequest(input));
    request.authorization = authorization;
  }
};

std::string Refusal(const Status& status) { return status.ok() ? "ok" : status.error().message(); }

TEST_CASE("Signatures are verified against the configured keys", "[sigv4]") {
  const Authenticator verifier(Keys{{"AKID", "secret"}});
  CHECK(Refusal(verifier.Check(Signed("AKID", "secret", "20251124T160000Z").request, kNowMs)) ==
        "ok");
  const Status wrong = verifier.Check(Signed("AKID", "other", "20251124T160000Z").request, kNowMs);
  CHECK(wrong.error().code() == ErrorCode::kInvalidSignature);
  CHECK(Refusal(wrong) ==
        "The request signature we calculated does not match the signature you provided. Check "
        "your AWS Secret Access Key and signing method. Consult the service documentation for "
        "details.");
  const Status unknown =
      verifier.Check(Signed("NOPE", "secret", "20251124T160000Z").request, kNowMs);
  CHECK(unknown.error().code() == ErrorCode::kUnrecognizedClient);
  CHECK(Refusal(unknown) == "The security token included in the request is invalid.");
  Signed tampered("AKID", "secret", "20251124T160000Z");
  tampered.request.body = "{\"Limit\":1}";
  CHECK(verifier.Check(tampered.request, kNowMs).error().code() == ErrorCode::kInvalidSignature);
}

TEST_CASE("A date outside the window is refused with DynamoDB's words", "[sigv4]") {
  const Authenticator verifier(Keys{{"AKID", "secret"}});
  CHECK(Refusal(verifier.Check(Signed("AKID", "secret", "20251124T155500Z").request, kNowMs)) ==
        "ok");
  CHECK(Refusal(verifier.Check(Signed("AKID", "secret", "20251124T155459Z").request, kNowMs)) ==
        "Signature expired: 20251124T155459Z is now earlier than 20251124T155500Z "
        "(20251124T160000Z - 5 min.)");
  CHECK(Refusal(verifier.Check(Signed("AKID", "secret", "20251124T161500Z").request, kNowMs)) ==
        "ok");
  CHECK(Refusal(verifier.Check(Signed("AKID", "secret", "20251124T161501Z").request, kNowMs)) ==
        "Signature not yet current: 20251124T161501Z is still later than 20251124T161500Z "
        "(20251124T160000Z + 15 min.)");
  // The date is checked before the key (behaviours-to-match A3, recorded against AWS).
  CHECK(Refusal(verifier.Check(Signed("NOPE", "secret", "20251124T155459Z").request, kNowMs))
            .starts_with("Signature expired: 20251124T155459Z"));
  CHECK(Refusal(verifier.Check(Signed("NOPE", "secret", "20251124T161501Z").request, kNowMs))
            .starts_with("Signature not yet current: 20251124T161501Z"));
}

TEST_CASE("Without keys any well-formed signature passes, a malformed one never", "[sigv4]") {
  const Authenticator lenient(Keys{});
  CHECK(Refusal(lenient.Check(Signed("ANY", "thing", "20000101T000000Z").request, kNowMs)) == "ok");
  HttpRequest bare;
  bare.authorization = "AWS4-HMAC-SHA256 Credential=AKID/20251124/us-east-1/dynamodb/aws4_request";
  const Status incomplete = lenient.Check(bare, kNowMs);
  CHECK(incomplete.error().code() == ErrorCode::kIncompleteSignature);
  CHECK(Refusal(incomplete) ==
        "Authorization header requires 'Signature' parameter. Authorization header requires "
        "'SignedHeaders' parameter. Authorization header requires existence of either a "
        "'X-Amz-Date' or a 'Date' header. Authorization=AWS4-HMAC-SHA256 "
        "Credential=AKID/20251124/us-east-1/dynamodb/aws4_request");
}

}  // namespace
}  // namespace ddbd
