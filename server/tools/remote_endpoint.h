// Any DynamoDB endpoint (AWS's, DynamoDB Local, another ddbd) as a RequestHandler, for `ddbd dump`
// and `ddbd load`: each request is signed with Signature Version 4 (server/sigv4.h, the code the
// verifier uses) from the usual AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN and
// AWS_REGION (or AWS_DEFAULT_REGION) variables, and sent over a kept-alive connection of the
// calling thread. Throttling and server errors are retried with exponential backoff.
//
// Thread safety: Handle may be called from many threads; each gets a connection of its own.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/dispatcher.h"
#include "server/tools/http_client.h"

namespace ddbd {

struct AwsCredentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty: none
  std::string region = "us-east-1";
  // From the environment; without keys, "local"/"local" (what DynamoDB Local and ddbd accept).
  static AwsCredentials FromEnvironment();
};

// Now as Signature Version 4 writes a request's time: yyyymmddThhmmssZ, UTC.
std::string AmzDateNow();

// The headers of a signed POST to "/" of an AWS JSON protocol (DynamoDB's 1.0, Kinesis's 1.1):
// Content-Type, X-Amz-Date, X-Amz-Target, X-Amz-Security-Token with a session token, and the
// Authorization that signs them, the host and `body` for `region` and `service`.
std::vector<std::pair<std::string, std::string>> SignedJsonHeaders(
    const AwsCredentials& credentials, std::string_view region, std::string_view service,
    std::string_view content_type, std::string_view host, std::string_view target,
    std::string_view body);

class RemoteEndpoint final : public RequestHandler {
 public:
  RemoteEndpoint(Endpoint endpoint, AwsCredentials credentials);
  ~RemoteEndpoint() override;

  // An answer of the endpoint, or HTTP 0 with {"message": <why>} when it could not be reached.
  DispatchResult Handle(std::string_view target, std::string_view body,
                        const RequestInfo& info) const override;

 private:
  DispatchResult Once(HttpClient& client, std::string_view target, std::string_view body) const;

  const Endpoint endpoint_;
  const AwsCredentials credentials_;
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<HttpClient>> idle_;  // connections no thread holds
};

}  // namespace ddbd
