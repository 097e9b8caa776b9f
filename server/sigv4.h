// AWS Signature Version 4, as DynamoDB verifies it: the canonical request (method, path,
// query, the signed headers canonicalized, the payload's hash), the string to sign and the
// signature, with SHA-256 and HMAC from OpenSSL. Shared by the verifier (server/authenticator.h)
// and, later, a signing client.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddbd::sigv4 {

// Undoes %XX escapes.
std::string UriDecode(std::string_view text);

// RFC 3986 encoding of everything but the unreserved characters (and '/' where `keep_slash`).
std::string UriEncode(std::string_view text, bool keep_slash);

// Lower-case hex of SHA-256(data).
std::string Sha256Hex(std::string_view data);

// What a signature covers. `headers` holds every header named in the SignedHeaders list (names
// in any case; a header sent several times appears several times, in order).
struct CanonicalInput {
  std::string_view method;
  std::string_view path;   // as sent, before '?'
  std::string_view query;  // as sent, after '?'
  std::vector<std::pair<std::string_view, std::string_view>> headers;
  std::string_view signed_headers;  // "host;x-amz-date", as the Authorization header lists them
  std::string_view payload_hash;    // hex SHA-256 of the body (or x-amz-content-sha256)
};

// The canonical request: the path as sent URI-encoded once more, query parameters decoded,
// encoded and sorted, header values with surrounding spaces trimmed and inner runs of spaces
// collapsed, repeated headers joined by commas.
std::string CanonicalRequest(const CanonicalInput& input);

// The key a secret signs with for one day, region and service (HMACs of the scope's parts):
// the same all day, so a verifier keeps it.
std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service);
// The hex signature of `canonical_request` with a signing key of that scope.
std::string SignWithKey(std::string_view signing_key, std::string_view date,
                        std::string_view region, std::string_view service,
                        std::string_view amz_date, std::string_view canonical_request);

// The hex signature of `canonical_request` with `secret`, for the scope
// <date>/<region>/<service>/aws4_request and the request time `amz_date` (yyyymmddThhmmssZ).
std::string Signature(std::string_view secret, std::string_view date, std::string_view region,
                      std::string_view service, std::string_view amz_date,
                      std::string_view canonical_request);

}  // namespace ddbd::sigv4
