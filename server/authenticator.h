// The Authorization header, checked as DynamoDB checks it: always its form (a header that lacks
// Credential, SignedHeaders or Signature, or a date, is IncompleteSignatureException), and, when
// keys are given (--auth-keys), its Signature Version 4 signature: an unknown access key id is
// UnrecognizedClientException, a date more than 5 minutes past or 15 minutes ahead of the
// server's clock or a wrong signature InvalidSignatureException, each with DynamoDB's text.
//
// Thread safety: Check may be called concurrently; the keys do not change after construction.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/error.h"
#include "protocol/authorization.h"
#include "server/http_types.h"

namespace ddbd {

class Authenticator {
 public:
  // `keys`: access key id -> secret access key; empty: any well-formed signature is accepted,
  // as DynamoDB Local does.
  explicit Authenticator(std::map<std::string, std::string> keys);

  bool verifies() const { return !keys_.empty(); }

  // Whether `request` carries a signature at all: an `AWS4-` Authorization header or a presigned
  // query (X-Amz-Algorithm=...). Without one it is MissingAuthenticationTokenException.
  static bool CarriesSignature(const HttpRequest& request);

  // `request` carries a signature (CarriesSignature): an `AWS4-` Authorization header, or else a
  // presigned query (IncompleteSignatureException "AWS query-string parameters must include
  // ..." when a part is missing); both at once is InvalidSignatureException "Found both ...".
  // `now_ms` is the server's clock.
  Status Check(const HttpRequest& request, int64_t now_ms) const;

 private:
  Status Verify(const HttpRequest& request, int64_t now_ms) const;
  Status CheckPresigned(const HttpRequest& request, int64_t now_ms) const;
  Status VerifySignature(const HttpRequest& request, const Authorization& parsed,
                         std::string_view amz_date, std::string_view query, int64_t now_ms) const;

  std::map<std::string, std::string> keys_;
};

}  // namespace ddbd
