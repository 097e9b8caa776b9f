#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {

Status DescribeTable(Engine& engine, const wire::DescribeTableInput& in, json::Writer& response) {
  auto table = engine.DescribeTable(TableNameOf(engine, in.table_name));
  if (!table.ok()) return table.error();
  wire::Write<wire::out::DescribeTableOutput>(response, [&](auto& out) {
    out.Table([&](wire::out::TableDescription& described) {
      EncodeTableDescription(described, table.value(), engine.options());
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
