#include <algorithm>

#include "protocol/operations/operations.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

constexpr int64_t kMaxLimit = 100;

Result<ListTablesArgs> DecodeListTables(const json::Value& request) {
  ConstraintErrors errors;
  ListTablesArgs args;
  auto start = json::AsString(json::Member(request, "ExclusiveStartTableName"));
  if (!start.ok()) return start.error();
  if (start.value()) {
    std::string_view name = *start.value();
    if (!IsValidTableNameCharacters(name)) {
      errors.Pattern(name, "exclusiveStartTableName", kTableNamePattern);
    }
    if (name.size() < 3) errors.MinLength(name, "exclusiveStartTableName", 3);
    if (name.size() > 255) errors.MaxLength(name, "exclusiveStartTableName", 255);
    args.exclusive_start_table_name = std::string(name);
  }
  auto limit = json::AsInteger(json::Member(request, "Limit"));
  if (!limit.ok()) return limit.error();
  if (limit.value()) {
    if (*limit.value() < 1) errors.MinValue(*limit.value(), "limit", 1);
    if (*limit.value() > kMaxLimit) errors.MaxValue(*limit.value(), "limit", kMaxLimit);
    args.limit = static_cast<int>(std::clamp<int64_t>(*limit.value(), 1, kMaxLimit));
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape.error();
  return args;
}

}  // namespace

Status ListTables(Engine& engine, const json::Value& request, json::Writer& response) {
  auto args = DecodeListTables(request);
  if (!args.ok()) return args.error();
  const ListTablesResult result = engine.ListTables(args.value());
  response.StartObject();
  response.Key("TableNames");
  response.StartArray();
  for (const std::string& name : result.table_names) json::String(response, name);
  response.EndArray();
  if (result.last_evaluated_table_name) {
    response.Key("LastEvaluatedTableName");
    json::String(response, *result.last_evaluated_table_name);
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
