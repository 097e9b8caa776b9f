#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

// What DynamoDB says clients may cache the answer for (a day).
constexpr int kCachePeriodInMinutes = 1440;

}  // namespace

// DescribeEndpoints: this server, as the client addressed it (its Host header), so SDKs with
// endpoint discovery keep talking to it.
Status DescribeEndpoints(const Engine&, const RequestInfo& info,
                         const wire::DescribeEndpointsRequest&, json::Writer& response) {
  wire::Write<wire::out::DescribeEndpointsResponse>(response, [&](auto& out) {
    out.Endpoints([&](wire::out::Endpoints& endpoints) {
      endpoints.Add([&](wire::out::Endpoint& endpoint) {
        endpoint.Address(info.host.empty() ? std::string_view("localhost") : info.host);
        endpoint.CachePeriodInMinutes(kCachePeriodInMinutes);
      });
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
