// What Query and Scan share: Select, ProjectionExpression/AttributesToGet, FilterExpression or
// legacy QueryFilter/ScanFilter, Limit, ExclusiveStartKey, the expression names and values used
// across all of them, and the response encoding.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/reads.h"
#include "engine/engine.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd {

// A decoded Query or Scan. `options` points into the members, so it must not be copied or moved
// once filled.
struct ReadRequest {
  ReadRequest() = default;
  ReadRequest(const ReadRequest&) = delete;
  ReadRequest& operator=(const ReadRequest&) = delete;

  std::string table_name;
  std::optional<std::string> index_name;
  std::optional<Condition> filter;
  std::optional<std::vector<DocumentPath>> projection;
  std::vector<KeyTerm> key_terms;  // Query
  bool scan_index_forward = true;  // Query
  int64_t segment = 0;             // Scan
  int64_t total_segments = 1;      // Scan
  ReadOptions options;
};

enum class ReadKind { kQuery, kScan };

// Fills `out` from a Query's or Scan's body, with DynamoDB's checks in its order: wrongly typed
// JSON, request constraints (the generated layer's), attribute values, segment rules,
// expressions, Select.
Status DecodeReadRequest(const json::Value& request, const Engine& engine, ReadKind kind,
                         ReadRequest& out);

// A Query's or a Scan's answer: Items (unless Select is COUNT), Count, ScannedCount,
// LastEvaluatedKey and ConsumedCapacity.
void EncodeReadPage(json::Writer& writer, const ReadPage& page, const ReadOptions& options,
                    ReadKind kind);

}  // namespace ddbd
