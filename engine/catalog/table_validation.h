// DynamoDB's semantic checks of a table definition, run after the protocol layer has checked the
// request's shape (types, lengths, enums). Messages are DynamoDB's own, verbatim.
#pragma once

#include "engine/catalog/table_schema.h"
#include "engine/error.h"

namespace ddbd {

// ValidationException describing the first problem, in DynamoDB's order of checks.
Status ValidateCreateTable(const CreateTableArgs& args);

// Applies `args` to `table` (the current description) at `now_ms`, or explains why not.
// ValidationException for an empty, conflicting or no-op update.
Status ApplyTableUpdate(const UpdateTableArgs& args, int64_t now_ms, TableDescription& table);

}  // namespace ddbd
