// DynamoDB's checks of secondary index definitions in CreateTable (UpdateTable's index creation
// reuses the per-index checks): key schemas, attribute definitions, projections, throughput by
// billing mode.
#pragma once

#include <cstddef>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

// ValidationException for the first problem. Covers the attribute definitions of the table and
// all its indexes together, as DynamoDB words those messages differently once indexes exist.
Status ValidateIndexes(const CreateTableArgs& args);

// A table has at most 20 global secondary indexes (DynamoDB's default quota).
constexpr size_t kMaxGlobalIndexes = 20;
Status GlobalIndexLimitExceeded();

// One index's key schema and projection (NonKeyAttributes exactly when INCLUDE); shared with
// UpdateTable's index creation. A local index's key is HASH then RANGE; a global index's one to
// four HASH attributes then up to four RANGE attributes (multi-attribute keys), all distinct.
Status CheckIndexKeySchema(const IndexDefinition& index, bool global);
Status CheckProjection(const IndexDefinition& index);

}  // namespace ddbd
