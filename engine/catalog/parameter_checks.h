// Checks and message pieces shared by the table, index and index-update validations.
#pragma once

#include <string>
#include <vector>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

// ValidationException "One or more parameter values were invalid: <detail>".
Error InvalidParameter(const std::string& detail);
// "[a, b, c]", as DynamoDB lists attribute names in its messages.
std::string ListedNames(const std::vector<std::string>& names);
// ReadCapacityUnits and WriteCapacityUnits at most 1e12 ("Given value N for X is out of bounds").
Status CheckCapacityBounds(const ProvisionedThroughput& throughput);
// OnDemandThroughput given for a table (`owner` "table") or a global index ("index"): refused
// under PROVISIONED billing; each member given must be at least 1, or on UpdateTable
// (`updating`) -1, which removes that ceiling. Messages as measured against DynamoDB (the index
// forms are unverified).
Status CheckOnDemandThroughput(const OnDemandThroughput& requested, BillingMode billing_mode,
                               bool updating, const std::string& owner);
// UpdateTable's OnDemandThroughput merged into `current` member by member; -1 removes one.
void MergeOnDemandThroughput(const OnDemandThroughput& requested, OnDemandThroughput& current);

// The first element HASH, the second (if any) RANGE.
Status CheckKeyTypes(const std::vector<KeySchemaElement>& key_schema);

}  // namespace ddbd
