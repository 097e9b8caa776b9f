#include "protocol/operations/operations.h"
#include "protocol/read_request.h"

namespace ddbd::operations {

Status Scan(Engine& engine, const json::Value& request, json::Writer& response) {
  ReadRequest read;
  if (Status decoded = DecodeReadRequest(request, engine, ReadKind::kScan, read); !decoded.ok()) {
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
