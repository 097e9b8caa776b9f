#include "protocol/operations/operations.h"
#include "protocol/read_request.h"

namespace ddbd::operations {

Status Scan(Engine& engine, const wire::ScanInput& in, const Status& constraints,
            json::Writer& response) {
  ReadRequest read;
  if (Status decoded = DecodeReadRequest(in, constraints, engine, read); !decoded.ok()) {
    return decoded;
  }
  ScanArgs args;
  args.table_name = read.table_name;
  args.segment = read.segment;
  args.total_segments = read.total_segments;
  args.read = read.options;
  auto page = engine.Scan(args);
  if (!page.ok()) return page.error();
  EncodeReadPage(response, page.value(), read.options, ReadKind::kScan);
  return Ok{};
}

}  // namespace ddbd::operations
