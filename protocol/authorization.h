// The Authorization header of a Signature Version 4 request, taken apart:
//   AWS4-HMAC-SHA256 Credential=AKID/20261124/us-east-1/dynamodb/aws4_request,
//     SignedHeaders=host;x-amz-date, Signature=5d67...
// Written once: namespaces (the access key id and region of each request) use the credential
// scope today; verifying signatures will use the rest.
#pragma once

#include <optional>
#include <string_view>

namespace ddbd {

struct Authorization {
  std::string_view algorithm;  // "AWS4-HMAC-SHA256"
  // Credential=<access key id>/<date>/<region>/<service>/aws4_request
  std::string_view access_key_id;
  std::string_view date;  // yyyymmdd
  std::string_view region;
  std::string_view service;
  std::string_view signed_headers;  // "host;x-amz-date", may be empty if absent
  std::string_view signature;       // hex, may be empty if absent
};

// Views into `header`. Nullopt unless it is an AWS4 header with a Credential of five parts, the
// last "aws4_request", the others not empty.
std::optional<Authorization> ParseAuthorization(std::string_view header);

}  // namespace ddbd
