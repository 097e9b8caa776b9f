// From a parsed PartiQL statement to the engine's own operations, once the table's keys are
// known: a SELECT with an equality on the whole partition key is a Query (a sort-key condition
// becomes its key range), any other SELECT a Scan, both with the rest of the WHERE as their
// filter; INSERT is a conditional PutItem, UPDATE and DELETE are UpdateItem and DeleteItem on
// the key the WHERE names, with the rest of the WHERE as their condition. So PartiQL shares
// every read, write, capacity and stream rule with the API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/reads.h"
#include "engine/engine.h"
#include "protocol/partiql/statement.h"

namespace ddbd::partiql {

// The key attributes of a table, or of the index a SELECT reads.
struct KeyNames {
  std::vector<std::string> partition;  // one, or several for a multi-attribute global index key
  std::vector<std::string> sort;
  bool global_index = false;
};

// ResourceNotFoundException "Requested resource not found" for a table that is not here;
// ValidationException for an index it does not have.
Result<KeyNames> FindKeys(const Engine& engine, const Statement& statement);

// The most partition-key values an IN may list for a SELECT to run as Queries.
inline constexpr size_t kMaxInPartitions = 50;

// A SELECT as one page of a Query or a Scan. `options` points into the plan: it is neither
// copied nor moved once filled.
struct ReadPlan {
  ReadPlan() = default;
  ReadPlan(const ReadPlan&) = delete;
  ReadPlan& operator=(const ReadPlan&) = delete;

  bool is_query = false;
  QueryArgs query;  // is_query: table, key terms, direction; its `read` is unused
  // `pk IN [a, b, ...]` (at most 50 values): one Query per value, in order, with the first key
  // term's value replaced; empty for one partition.
  std::vector<AttributeValue> partitions;
  ScanArgs scan;  // otherwise: the table; its `read` is unused
  std::optional<Condition> filter;
  std::vector<DocumentPath> projection;
  ReadOptions options;
};

// ValidationException for ORDER BY without a partition-key equality or on a non-key attribute,
// and for a consistent read of a global index.
Status PlanSelect(const Statement& statement, const KeyNames& keys, bool consistent_read,
                  ReadPlan& plan);

// The item a write, EXISTS or transactional SELECT names, and the rest of its WHERE.
struct KeyedWhere {
  Item key;
  std::optional<Condition> rest;
};
// ValidationException "Where clause does not contain a mandatory equality on all key
// attributes", or "Multiple conditions on same key ..." when one is given twice.
Result<KeyedWhere> SplitKey(const std::optional<Condition>& where, const KeyNames& keys);

// INSERT, UPDATE, DELETE or EXISTS as the engine's write: `item` is the Put's item or the key,
// `condition` what must hold (INSERT: no item with the key; UPDATE and EXISTS: the item exists
// and the WHERE holds; DELETE: no item, or the WHERE holds).
struct WritePlan {
  Statement::Kind kind = Statement::Kind::kInsert;
  std::string table_name;
  Item item;
  std::vector<UpdateAction> actions;
  std::optional<Condition> condition;
  ReturnValues returning = ReturnValues::kNone;
};
// ValidationException "This operation is not supported on an index", "Key attribute should be
// present in the item: Key ...", and SplitKey's.
Result<WritePlan> PlanWrite(Statement statement, const KeyNames& keys);

}  // namespace ddbd::partiql
