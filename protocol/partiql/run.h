// Running PartiQL statements on the engine: one alone (ExecuteStatement, each statement of a
// BatchExecuteStatement), or as the parts of a transaction (ExecuteTransaction).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/item_blobs.h"
#include "engine/api/transactions.h"
#include "engine/engine.h"
#include "protocol/partiql/request.h"
#include "protocol/partiql/statement.h"

namespace ddbd::partiql {

// What one statement gave: a SELECT's page, or the item a write's RETURNING asked for.
struct StatementOutcome {
  ItemBlobs item_blobs;     // whole stored items, encoded as they are
  std::vector<Item> items;  // projected or returned items
  std::optional<Item> last_evaluated_key;
  size_t partition = 0;  // `pk IN [...]`: the partition the page ended in
  std::optional<ConsumedCapacity> consumed_capacity;
  Ticket ticket;  // a write's: what its answer waits for
};

struct RunOptions {
  int64_t limit = 0;  // SELECT: items evaluated per page; 0: up to 1 MB
  std::optional<Item> exclusive_start_key;
  size_t start_partition = 0;  // `pk IN [...]`: the partition to resume in
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

// Parses `request`'s statement with its parameters.
Result<Statement> ParseRequest(const StatementRequest& request);

// Runs a parsed statement alone. The parser's and planner's errors, the engine's (as for Query,
// Scan, PutItem, UpdateItem and DeleteItem), DuplicateItemException "Duplicate primary key
// exists in table" for an INSERT of a key that is there, ValidationException "EXISTS can only be
// used in ExecuteTransaction write requests." for EXISTS.
Result<StatementOutcome> RunStatement(Engine& engine, Statement statement,
                                      const StatementRequest& request, const RunOptions& options);

// A SELECT of one item by its whole key, as BatchExecuteStatement and transactions read:
// ValidationException `not_single` when the WHERE names more or less than the key.
struct KeyedRead {
  GetRequest get;
  // Empty: the whole item. Else what the SELECT names, which the engine projects: point the
  // request's projection at it once the read stays put.
  std::vector<DocumentPath> projection;
};
Result<KeyedRead> PlanKeyedRead(const Engine& engine, const Statement& statement,
                                std::string_view not_single);

// DynamoDB names what a SELECT of a nested path returns by the path's last name: `SELECT m.leaf`
// answers {"leaf": ...} (recorded against AWS: behaviours-to-match D7). A path ending in a list
// index keeps its nesting (how DynamoDB names it is not recorded). `item` is as the engine
// projected it by `projection`.
void NameByLastSegment(const std::vector<DocumentPath>& projection, Item& item);

// INSERT, UPDATE, DELETE or EXISTS as one action of a transaction.
Result<TransactWriteAction> PlanTransactionWrite(const Engine& engine, Statement statement,
                                                 bool return_item_on_condition_failure);

// A cancelled transaction's reasons with an INSERT's failed condition said as DynamoDB says it:
// DuplicateItem. `inserts[i]` is true for the statements that are INSERTs.
Error WithDuplicateItemReasons(const Error& cancelled, const std::vector<bool>& inserts);

}  // namespace ddbd::partiql
