// What Query and Scan share: Select, ProjectionExpression/AttributesToGet, FilterExpression or
// legacy QueryFilter/ScanFilter, Limit, ExclusiveStartKey, the expression names and values used
// across all of them, and the response encoding.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/reads.h"
#include "engine/engine.h"
#include "protocol/generated/requests.h"
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

// Fills `out` from a Query's or Scan's request as the generated layer read it, with DynamoDB's
// checks in its order: attribute values' serialization, the request's constraints (`constraints`,
// the generated layer's), the start key's values, segment rules, expressions, Select.
Status DecodeReadRequest(const wire::QueryInput& in, const Status& constraints,
                         const Engine& engine, ReadRequest& out);
Status DecodeReadRequest(const wire::ScanInput& in, const Status& constraints, const Engine& engine,
                         ReadRequest& out);

// A Query's or a Scan's answer: Items (unless Select is COUNT), Count, ScannedCount,
// LastEvaluatedKey and ConsumedCapacity.
void EncodeReadPage(json::Writer& writer, const ReadPage& page, const ReadOptions& options,
                    ReadKind kind);

}  // namespace ddbd
