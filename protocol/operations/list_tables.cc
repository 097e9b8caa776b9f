#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
Status ListTables(Engine& engine, const wire::ListTablesInput& in, json::Writer& response) {
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
