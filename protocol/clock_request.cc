#include "protocol/clock_request.h"

#include <rapidjson/document.h>

namespace ddbd {

std::optional<double> ClockMoveMs(std::string_view body, double now_ms) {
  rapidjson::Document request;
  request.Parse(body.data(), body.size());
  if (request.HasParseError() || !request.IsObject() || request.MemberCount() != 1 ||
      !request.MemberBegin()->value.IsNumber()) {
    return std::nullopt;
  }
  const std::string_view name(request.MemberBegin()->name.GetString(),
                              request.MemberBegin()->name.GetStringLength());
  const double value = request.MemberBegin()->value.GetDouble();
  if (name == "advanceSeconds") return value * 1000;
  if (name == "advanceMillis") return value;
  if (name == "epochSeconds") return value * 1000 - now_ms;
  return std::nullopt;
}

}  // namespace ddbd
