#include "protocol/operations/operations.h"
#include "protocol/read_request.h"

namespace ddbd::operations {

Status Query(Engine& engine, const wire::QueryInput& in, const Status& constraints,
             json::Writer& response) {
  ReadRequest read;
  if (Status decoded = DecodeReadRequest(in, constraints, engine, read); !decoded.ok()) {
    return decoded;
  }
  QueryArgs args;
  args.table_name = read.table_name;
  args.key_terms = read.key_terms;
  args.scan_index_forward = read.scan_index_forward;
  args.read = read.options;
  auto page = engine.Query(args);
  if (!page.ok()) return page.error();
  EncodeReadPage(response, page.value(), read.options, ReadKind::kQuery);
  return Ok{};
}

}  // namespace ddbd::operations
