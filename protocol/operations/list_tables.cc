#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
Status ListTables(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::ListTablesInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  ListTablesArgs args;
  if (in.exclusive_start_table_name) {
    args.exclusive_start_table_name = std::string(*in.exclusive_start_table_name);
  }
  if (in.limit) args.limit = static_cast<int>(*in.limit);
  const ListTablesResult result = engine.ListTables(args);
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
