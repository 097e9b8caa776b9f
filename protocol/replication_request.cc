#include "protocol/replication_request.h"

#include <rapidjson/document.h>

namespace ddbd {

std::optional<std::pair<std::string, std::string>> ReplicationRegionsOf(std::string_view body) {
  std::pair<std::string, std::string> regions;
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return regions;
  rapidjson::Document request;
  request.Parse(body.data(), body.size());
  if (request.HasParseError() || !request.IsObject()) return std::nullopt;
  // By index: clang reads a C++20 range-for's iterator comparison over RapidJSON as ambiguous.
  for (rapidjson::SizeType i = 0; i < request.MemberCount(); ++i) {
    const auto& member = request.MemberBegin()[i];
    const std::string_view name(member.name.GetString(), member.name.GetStringLength());
    if ((name != "source" && name != "target") || !member.value.IsString()) return std::nullopt;
    std::string value(member.value.GetString(), member.value.GetStringLength());
    (name == "source" ? regions.first : regions.second) = std::move(value);
  }
  return regions;
}

}  // namespace ddbd
