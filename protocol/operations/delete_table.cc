#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {

Status DeleteTable(Engine& engine, const wire::DeleteTableInput& in, json::Writer& response,
                   Ticket& ticket) {
  auto deleted = engine.DeleteTable(TableNameOf(engine, in.table_name));
  if (!deleted.ok()) return deleted.error();
  ticket = deleted.value().ticket;
  wire::Write<wire::out::DeleteTableOutput>(response, [&](auto& out) {
    out.TableDescription([&](wire::out::TableDescription& table) {
      EncodeDeletedTableDescription(table, deleted.value(), engine.options());
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
