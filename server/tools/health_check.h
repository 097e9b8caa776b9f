// `ddbd health`: asks a running ddbd whether it serves and takes writes (GET /_ddbd/health: 503
// with the reason while its data directory cannot be written), for a container's HEALTHCHECK: the
// image holds no shell and no curl. Plain HTTP, or HTTPS when the server serves only HTTPS (its
// certificate is not checked: this is a liveness probe of the server on this host, not a client
// that trusts it).
#pragma once

#include <cstdint>
#include <string>

namespace ddbd {

struct HealthCheckTarget {
  std::string host = "127.0.0.1";  // 0.0.0.0 and :: (every address) are asked on loopback
  uint16_t port = 8000;
  bool tls = false;
  int timeout_ms = 3000;
};

// True when the server answered 200 "healthy"; otherwise false with the reason in `problem`.
bool CheckHealth(const HealthCheckTarget& target, std::string& problem);

}  // namespace ddbd
