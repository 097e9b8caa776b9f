// DynamoDB's semantic checks of a table definition, run after the protocol layer has checked the
// request's shape (types, lengths, enums). Messages are DynamoDB's own, verbatim.
#pragma once

#include <optional>
#include <string>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

// ValidationException describing the first problem, in DynamoDB's order of checks.
Status ValidateCreateTable(const CreateTableArgs& args);
// The WarmThroughput a new table gets from `args` (which ValidateCreateTable accepted, and which
// has one): members not given take DynamoDB's initial on-demand throughput (12,000 reads and 4,000
// writes per second) or the provisioned capacity.
WarmThroughput CreatedWarmThroughput(const CreateTableArgs& args);

// `requested` applied to `current`: a member below its floor is refused, naming `subject`
// ("table", "index <name>"): at creation the floor is DynamoDB's initial on-demand throughput or
// the provisioned capacity; later, the current value (warm throughput never decreases).
Result<WarmThroughput> ApplyWarmThroughput(const WarmThroughputRequest& requested,
                                           const WarmThroughput& current, bool creating,
                                           BillingMode billing, const std::string& subject);
// The WarmThroughput a global index is created with: none unless requested (then checked).
Result<std::optional<WarmThroughput>> CreatedIndexWarmThroughput(BillingMode billing,
                                                                 const IndexDefinition& index);

// Applies `args` to `table` (the current description) at `now_ms`, or explains why not.
// ValidationException for an empty, conflicting or no-op update.
Status ApplyTableUpdate(const UpdateTableArgs& args, int64_t now_ms, TableDescription& table);

}  // namespace ddbd
