#include "server/tools/health_check.h"

#include "server/tools/http_client.h"

namespace ddbd {

bool CheckHealth(const HealthCheckTarget& target, std::string& problem) {
  Endpoint endpoint;
  endpoint.tls = target.tls;
  endpoint.host = target.host;
  if (endpoint.host == "0.0.0.0") endpoint.host = "127.0.0.1";
  if (endpoint.host == "::") endpoint.host = "::1";
  endpoint.port = target.port;
  // Not verified: this asks the server on this host whether it runs, whatever its certificate.
  HttpClient client(endpoint, /*verify_tls=*/false, target.timeout_ms);
  HttpAnswer answer;
  if (!client.Send("GET", "/_ddbd/health", {{"Connection", "close"}}, "", answer, problem)) {
    if (problem.starts_with("no answer")) {
      problem = "no answer within " + std::to_string(target.timeout_ms) + " ms";
    }
    return false;
  }
  if (answer.status == 503) {
    problem = "unhealthy: " + answer.body;
    return false;
  }
  if (answer.status != 200 || answer.body.find("\"healthy\"") == std::string::npos) {
    problem = "unexpected answer: HTTP " + std::to_string(answer.status);
    return false;
  }
  return true;
}

}  // namespace ddbd
