// UpdateTable's VectorIndexUpdates (issue 41): one vector index created or deleted a call, with
// DynamoDB's lifecycle when --table-delay-ms is set (allocating, then backfilling, then ACTIVE;
// searches refused until then) and its refusals while an index change is under way.
#pragma once

#include "engine/api/tables.h"
#include "engine/catalog/index_updates.h"
#include "engine/error.h"

namespace ddbd {

// Checks and applies `args.vector_index_updates` to `table` (already carrying the call's other
// changes): a created index is CREATING (with `created_ms`) when delayed, else ACTIVE; a deleted
// one DELETING when delayed, else gone.
Status ApplyVectorIndexUpdates(const UpdateTableArgs& args, const IndexUpdateContext& context,
                               TableDescription& table);

// Whether an UpdateTable with vector index updates may go on while `table` (as described now) is
// UPDATING: the deletion of an index that is backfilling may; others are refused with DynamoDB's
// texts (ResourceInUse while the index allocates, the one-index-at-a-time LimitExceeded else).
// Ok when `table` is not UPDATING for a vector index.
Status CheckVectorIndexUpdatesDuringChange(const UpdateTableArgs& args,
                                           const TableDescription& table);

// DeleteTable's refusal while a vector index is being created or deleted (recorded against AWS).
Status CheckDeleteDuringVectorIndexChange(const TableDescription& table);

}  // namespace ddbd
