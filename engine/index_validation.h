// DynamoDB's checks of secondary index definitions in CreateTable (and, later, UpdateTable's
// index creation): key schemas, attribute definitions, projections, throughput by billing mode.
#pragma once

#include "engine/error.h"
#include "engine/table_schema.h"

namespace ddbd {

// ValidationException for the first problem. Covers the attribute definitions of the table and
// all its indexes together, as DynamoDB words those messages differently once indexes exist.
Status ValidateIndexes(const CreateTableArgs& args);

}  // namespace ddbd
