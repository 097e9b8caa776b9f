// The arguments and outcomes of TransactWriteItems and TransactGetItems (engine/engine.h).
// Facts: ../shared/aws-semantics.md section 3.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/api/items.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "engine/model/attribute_value.h"

namespace ddbd {

// The most actions one transaction may hold.
inline constexpr size_t kMaxTransactionActions = 100;
// The most a transaction may write: its Put items' sizes together (deletes do not count).
inline constexpr size_t kMaxTransactionBytes = 4 * 1024 * 1024;
// How long a ClientRequestToken is remembered after its call completed.
inline constexpr int64_t kIdempotencyWindowMs = 10 * 60 * 1000;

// One action of a TransactWriteItems.
struct TransactWriteAction {
  enum class Kind { kConditionCheck, kPut, kDelete, kUpdate };
  Kind kind = Kind::kPut;
  std::string table_name;
  Item item;                          // kPut: the item; the others: the key
  std::vector<UpdateAction> actions;  // kUpdate
  std::optional<Condition> condition;
  bool return_item_on_condition_failure = false;  // ReturnValuesOnConditionCheckFailure ALL_OLD
};

struct TransactWriteItemsArgs {
  std::vector<TransactWriteAction> actions;
  // ClientRequestToken, and a fingerprint of the request's parameters: a repeat of a completed
  // call within 10 minutes with the same fingerprint applies nothing again.
  std::optional<std::string> client_request_token;
  uint64_t request_fingerprint = 0;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool return_item_collection_metrics = false;
  bool partiql = false;  // ExecuteTransaction's: not counted by Contributor Insights
};

struct TransactWriteItemsOutcome {
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table, in request order
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>> item_collection_metrics;
  Ticket ticket;  // its one log record (writes and token together)
};

struct TransactGetItemsArgs {
  std::vector<GetRequest> gets;  // consistent_read is ignored: transactional reads are consistent
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool partiql = false;  // ExecuteTransaction's: not counted by Contributor Insights
};

struct TransactGetItemsOutcome {
  std::vector<ReadItem> items;                      // one per Get, in order
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table, in request order
};

}  // namespace ddbd
