#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {

Status DeleteTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket) {
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto deleted = engine.DeleteTable(name.value());
  if (!deleted.ok()) return deleted.error();
  ticket = deleted.value().ticket;
  EncodeDeletedTableResponse(response, deleted.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
