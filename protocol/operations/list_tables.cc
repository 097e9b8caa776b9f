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
  wire::Write<wire::out::ListTablesOutput>(response, [&](auto& out) {
    out.TableNames([&](wire::out::TableNameList& names) {
      for (const std::string& name : result.table_names) names.Add(name);
    });
    if (result.last_evaluated_table_name) {
      out.LastEvaluatedTableName(*result.last_evaluated_table_name);
    }
  });
  return Ok{};
}

}  // namespace ddbd::operations
