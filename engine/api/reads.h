// Query and Scan: what to read (the key condition, a parallel-scan segment), how (filter,
// projection, Limit, ExclusiveStartKey, direction), and one page of the answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/api/item_blobs.h"
#include "engine/expression/condition.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/item_key.h"

namespace ddbd {

// One condition of a key condition expression, on a named attribute.
struct KeyTerm {
  enum class Op { kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
  std::string attribute;
  Op op = Op::kEq;
  std::vector<AttributeValue> values;  // two for BETWEEN, one otherwise
};

struct ReadOptions {
  std::string index_name;              // empty: the table itself
  bool consistent_read = false;        // refused on global secondary indexes
  bool select_all_attributes = false;  // Select: ALL_ATTRIBUTES given explicitly
  const Condition* filter = nullptr;
  std::string filter_member = "Filter Expression";  // how messages name it
  // A Query's filter may name key attributes: PartiQL keeps there the key conditions a key range
  // cannot express (the API refuses them).
  bool filter_may_name_keys = false;
  const std::vector<DocumentPath>* projection = nullptr;
  bool count_only = false;
  int64_t limit = 0;  // items evaluated per page; 0: no limit
  std::optional<Item> exclusive_start_key;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool partiql = false;  // a PartiQL statement's read: not counted by Contributor Insights
};

struct QueryArgs {
  std::string table_name;
  std::vector<KeyTerm> key_terms;
  bool scan_index_forward = true;
  ReadOptions read;
};

struct ScanArgs {
  std::string table_name;
  int64_t segment = 0;
  int64_t total_segments = 1;
  ReadOptions read;
};

struct ReadPage {
  // The items returned: as stored blobs (engine/item_codec.h) when the read has no projection,
  // so an encoder can write them without decoding; otherwise projected, in `items`.
  ItemBlobs item_blobs;
  std::vector<Item> items;
  int64_t count = 0;          // items returned (after the filter)
  int64_t scanned_count = 0;  // items evaluated (before the filter)
  std::optional<Item> last_evaluated_key;
  // When asked: the items evaluated (before the filter and projection), summed and rounded up
  // once, on the index read or the table; a local index's fetches of unprojected attributes
  // cost the table.
  std::optional<ConsumedCapacity> consumed_capacity;
};

// The key a read of a table, or of one of its indexes, goes by.
struct ReadKeySchema {
  KeyParts key;
  bool global_index = false;
};

// DynamoDB ends a page after reading 1 MB (by its item size).
inline constexpr uint64_t kMaxPageBytes = 1024 * 1024;

}  // namespace ddbd
