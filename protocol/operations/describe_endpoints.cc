#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

// What DynamoDB says clients may cache the answer for (a day).
constexpr int kCachePeriodInMinutes = 1440;

}  // namespace

// DescribeEndpoints: this server, as the client addressed it (its Host header), so SDKs with
// endpoint discovery keep talking to it.
Status DescribeEndpoints(const Engine&, const RequestInfo& info, const json::Value&,
                         json::Writer& response) {
  response.StartObject();
  response.Key("Endpoints");
  response.StartArray();
  response.StartObject();
  response.Key("Address");
  json::String(response, info.host.empty() ? std::string_view("localhost") : info.host);
  response.Key("CachePeriodInMinutes");
  response.Int(kCachePeriodInMinutes);
  response.EndObject();
  response.EndArray();
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
