#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {

Status DescribeTable(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto table = engine.DescribeTable(name.value());
  if (!table.ok()) return table.error();
  EncodeTableDescriptionResponse(response, "Table", table.value(), engine.options());
  return Ok{};
}

}  // namespace ddbd::operations
