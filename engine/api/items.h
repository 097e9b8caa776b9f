// The arguments and outcomes of the engine's item operations (engine/engine.h): one struct in,
// one out, so a new request member or result field has one place to go. Views and pointers in
// arguments must outlive the call.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/api/durability.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/stored_item.h"

namespace ddbd {

// What a write returns of the item: nothing, all of it before or after, or only the attributes
// an update names, before or after. PutItem and DeleteItem take kNone and kAllOld only.
enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// What every single-item write takes besides its item or key.
struct WriteArgs {
  std::string_view table_name;
  // The write happens only if this holds for the current item, atomically with it.
  const Condition* condition = nullptr;
  ReturnValues return_values = ReturnValues::kNone;
  bool return_item_on_condition_failure = false;  // ReturnValuesOnConditionCheckFailure ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics SIZE
  // A PartiQL statement's write: Contributor Insights does not count it (the Developer Guide).
  bool partiql = false;
};

struct PutItemArgs : WriteArgs {
  Item item;
};
struct DeleteItemArgs : WriteArgs {
  Item key;
};
struct UpdateItemArgs : WriteArgs {
  Item key;
  std::vector<UpdateAction> actions;
  // UpdateItem's own rule in most regions, us-east-1 among them: what the statement writes is
  // held to 400 KB as well as the finished item (recorded against AWS: behaviours-to-match E6).
  // PartiQL's UPDATE and a transaction's Update hold the finished item alone.
  bool statement_sized = false;
};

// The size of one item collection (the items sharing a partition key in a table with a local
// secondary index, with their LSI entries), as DynamoDB estimates it.
struct ItemCollectionMetrics {
  Item item_collection_key;           // the partition key attribute
  double size_estimate_lower_gb = 0;  // SizeEstimateRangeGB
  double size_estimate_upper_gb = 1;
};

struct WriteOutcome {
  std::optional<Item> attributes;  // UpdateItem's ReturnValues; absent when nothing to return
  // PutItem's and DeleteItem's ALL_OLD: the item as it was stored, answered from that form (never
  // decoded only to be encoded again); absent when there was none.
  std::optional<StoredItem> old_item;
  std::optional<ConsumedCapacity> consumed_capacity;
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  Ticket ticket;  // what the answer waits for (Engine::WhenDurable)
};

struct GetItemArgs {
  std::string_view table_name;
  Item key;
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  // ProjectionExpression or AttributesToGet, borrowed for the call; null: the whole item.
  const std::vector<DocumentPath>* projection = nullptr;
  bool partiql = false;  // a PartiQL statement's read: not counted by Contributor Insights
};
// An item a read returns: as stored when the read projects nothing (an encoder writes the blob as
// it is, never decoding it), else projected here in the engine, once.
struct ReadItem {
  std::optional<StoredItem> item;  // the stored blob (decode with DecodeItem, or encode as is)
  std::optional<Item> projected;   // with a projection: what it keeps of the item (maybe nothing)
  bool found() const { return item.has_value() || projected.has_value(); }
};
struct GetItemOutcome : ReadItem {
  std::optional<ConsumedCapacity> consumed_capacity;
};

// One write of a BatchWriteItem: put `item`, or delete the item whose Key is `item`.
struct WriteRequest {
  enum class Kind { kPut, kDelete };
  std::string table_name;
  Kind kind = Kind::kPut;
  Item item;
};
struct BatchWriteItemArgs {
  std::vector<WriteRequest> requests;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool return_item_collection_metrics = false;
};
struct BatchWriteItemOutcome {
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table, in request order
  // Per table with a local secondary index, one per item written, in request order.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics;
  // Requests not applied because their table or an index was out of capacity, or their item is
  // held by a transaction in flight (indexes into the request list). When every request was
  // throttled the whole call fails instead.
  std::vector<size_t> unprocessed;
  Ticket ticket;
};

// One key of a BatchGetItem.
struct GetRequest {
  std::string table_name;
  Item key;
  bool consistent_read = false;                           // per table in the request
  const std::vector<DocumentPath>* projection = nullptr;  // borrowed; null: the whole item
};
struct BatchGetItemArgs {
  std::vector<GetRequest> requests;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct BatchGetItemOutcome {
  std::vector<ReadItem> items;                      // one per request, in order
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table, in request order
  // Keys not read because their table was out of capacity (indexes into the request list; their
  // `items` are empty); the whole call fails instead when none was read.
  std::vector<size_t> unprocessed;
};

}  // namespace ddbd
