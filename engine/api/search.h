// SearchVectors' arguments and answer (issue 41): the k items of a vector index nearest a vector,
// among those whose search-schema attributes equal the values a condition names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/api/items.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace ddbd {

// DynamoDB's bounds: TopK 1-100, answers up to 16 MB (no pagination).
inline constexpr int64_t kMaxSearchTopK = 100;
inline constexpr uint64_t kMaxSearchResponseBytes = 16 * 1024 * 1024;

struct SearchVectorsArgs {
  std::string table_name;
  std::string index_name;
  std::vector<float> search_vector;  // each element already an f32 (the protocol checks)
  int64_t top_k = 1;
  // SearchConditionExpression: attribute = value, ANDed; each a search-schema attribute.
  std::vector<std::pair<std::string, AttributeValue>> conditions;
  const std::vector<DocumentPath>* projection = nullptr;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

struct SearchResult {
  ReadItem item;  // what the index projects, then the ProjectionExpression keeps
  double score = 0;
};

struct SearchVectorsOutcome {
  std::vector<SearchResult> results;  // best first
  // ConsumedCapacity's VectorSearchRequestBytes, when asked: the f32 bytes scored.
  std::optional<int64_t> search_request_bytes;
};

}  // namespace ddbd
