#include "protocol/request_summary.h"

#include <rapidjson/document.h>

namespace ddbd {
namespace {

// Parsed in place over a copy. Iteratively: the request body is the client's, however deeply it
// nests (the dispatcher refuses such a body; the log still reads it), so no recursion over it.
// The document's pool allocator frees without walking the values either.
bool Parse(std::string_view body, rapidjson::Document& document, std::string& copy) {
  if (body.empty() || body.front() != '{') return false;
  copy.assign(body);
  document.ParseInsitu<rapidjson::kParseIterativeFlag>(copy.data());
  return !document.HasParseError() && document.IsObject();
}

double CapacityUnits(const rapidjson::Value& consumed) {
  if (!consumed.IsObject()) return 0;
  const auto units = consumed.FindMember("CapacityUnits");
  return units != consumed.MemberEnd() && units->value.IsNumber() ? units->value.GetDouble() : 0;
}

}  // namespace

std::string RequestTables(std::string_view request_body) {
  std::string tables;
  rapidjson::Document request;
  std::string copy;
  if (!Parse(request_body, request, copy)) return tables;
  if (const auto name = request.FindMember("TableName");
      name != request.MemberEnd() && name->value.IsString()) {
    tables.assign(name->value.GetString(), name->value.GetStringLength());
  } else if (const auto items = request.FindMember("RequestItems");
             items != request.MemberEnd() && items->value.IsObject()) {
    for (const auto& table : items->value.GetObject()) {
      if (!tables.empty()) tables += ',';
      tables.append(table.name.GetString(), table.name.GetStringLength());
    }
  }
  return tables;
}

std::optional<double> ConsumedCapacityUnits(std::string_view response_body) {
  rapidjson::Document response;
  std::string copy;
  if (!Parse(response_body, response, copy)) return std::nullopt;
  const auto consumed = response.FindMember("ConsumedCapacity");
  if (consumed == response.MemberEnd()) return std::nullopt;
  double units = 0;
  if (consumed->value.IsArray()) {
    for (const auto& table : consumed->value.GetArray()) units += CapacityUnits(table);
  } else {
    units = CapacityUnits(consumed->value);
  }
  return units;
}

}  // namespace ddbd
