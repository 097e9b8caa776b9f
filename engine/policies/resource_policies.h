// The resource-based policy operations; the check of a policy's document is
// engine/catalog/setting_rules.h.
#pragma once

#include <optional>
#include <string>

#include "engine/api/policies.h"
#include "engine/catalog/table_metadata.h"
#include "engine/clock.h"
#include "engine/error.h"

namespace ddbd {

// The policy operations on the tables (and their streams) `catalog` holds; Engine's calls
// delegate here. Revision ids are `clock`'s milliseconds, always rising.
Result<PolicyOutcome> PutResourcePolicy(TableMetadata& catalog, const Clock& clock,
                                        const PutResourcePolicyArgs& args);
Result<ResourcePolicy> GetResourcePolicy(const TableMetadata& catalog,
                                         const std::string& resource_arn);
Result<PolicyOutcome> DeleteResourcePolicy(TableMetadata& catalog,
                                           const DeleteResourcePolicyArgs& args);

}  // namespace ddbd
