#include "server/tools/remote_endpoint.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <thread>

#include "server/sigv4.h"

namespace ddbd {
namespace {

std::string Environment(const char* name, const char* fallback = "") {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// Worth another try: the endpoint was busy or failed, not the request.
bool Retryable(const DispatchResult& result) {
  if (result.http_status == 0 || result.http_status >= 500) return true;
  for (const char* type : {"ProvisionedThroughputExceededException", "ThrottlingException",
                           "RequestLimitExceeded", "LimitExceededException"}) {
    if (result.body.find(type) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::string AmzDateNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[20];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

std::vector<std::pair<std::string, std::string>> SignedJsonHeaders(
    const AwsCredentials& credentials, std::string_view region, std::string_view service,
    std::string_view content_type, std::string_view host, std::string_view target,
    std::string_view body) {
  const std::string amz_date = AmzDateNow();
  const std::string date = amz_date.substr(0, 8);
  const std::string payload_hash = sigv4::Sha256Hex(body);
  std::vector<std::pair<std::string_view, std::string_view>> signed_headers = {
      {"content-type", content_type},
      {"host", host},
      {"x-amz-date", amz_date},
      {"x-amz-target", target}};
  std::string names = "content-type;host;x-amz-date";
  if (!credentials.session_token.empty()) {
    signed_headers.emplace_back("x-amz-security-token", credentials.session_token);
    names += ";x-amz-security-token";
  }
  names += ";x-amz-target";
  sigv4::CanonicalInput input;
  input.method = "POST";
  input.path = "/";
  input.headers = signed_headers;
  input.signed_headers = names;
  input.payload_hash = payload_hash;
  const std::string signature = sigv4::Signature(credentials.secret_access_key, date, region,
                                                 service, amz_date, sigv4::CanonicalRequest(input));
  std::vector<std::pair<std::string, std::string>> headers = {
      {"Content-Type", std::string(content_type)},
      {"X-Amz-Date", amz_date},
      {"X-Amz-Target", std::string(target)},
      {"Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" + date +
                            "/" + std::string(region) + "/" + std::string(service) +
                            "/aws4_request, SignedHeaders=" + names + ", Signature=" + signature}};
  if (!credentials.session_token.empty()) {
    headers.emplace_back("X-Amz-Security-Token", credentials.session_token);
  }
  return headers;
}

AwsCredentials AwsCredentials::FromEnvironment() {
  AwsCredentials credentials;
  credentials.access_key_id = Environment("AWS_ACCESS_KEY_ID", "local");
  credentials.secret_access_key = Environment("AWS_SECRET_ACCESS_KEY", "local");
  credentials.session_token = Environment("AWS_SESSION_TOKEN");
  credentials.region =
      Environment("AWS_REGION", Environment("AWS_DEFAULT_REGION", "us-east-1").c_str());
  return credentials;
}

RemoteEndpoint::RemoteEndpoint(Endpoint endpoint, AwsCredentials credentials)
    : endpoint_(std::move(endpoint)), credentials_(std::move(credentials)) {}

RemoteEndpoint::~RemoteEndpoint() = default;

DispatchResult RemoteEndpoint::Once(HttpClient& client, std::string_view target,
                                    std::string_view body) const {
  const auto headers =
      SignedJsonHeaders(credentials_, credentials_.region, "dynamodb", "application/x-amz-json-1.0",
                        endpoint_.HostHeader(), target, body);
  HttpAnswer answer;
  std::string problem;
  if (!client.Send("POST", "/", headers, body, answer, problem)) {
    return {0, "{\"message\":\"" + problem + "\"}"};
  }
  return {answer.status, std::move(answer.body)};
}

DispatchResult RemoteEndpoint::Handle(std::string_view target, std::string_view body,
                                      const RequestInfo&) const {
  std::unique_ptr<HttpClient> client;
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      client = std::move(idle_.back());
      idle_.pop_back();
    }
  }
  if (!client) client = std::make_unique<HttpClient>(endpoint_, /*verify_tls=*/true, 60'000);
  DispatchResult result;
  // 50 ms doubling to ~13 s: about half a minute in all before giving up.
  for (int attempt = 0; attempt < 9; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50 << (attempt - 1)));
    result = Once(*client, target, body);
    if (!Retryable(result)) break;
  }
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(client));
  return result;
}

}  // namespace ddbd
