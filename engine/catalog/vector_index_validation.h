// DynamoDB's semantic checks of vector index definitions (issue 41), after the protocol layer
// checked their shape (names, enums, Dimensions >= 1, SearchSchema non-empty).
//
// Which texts are AWS's: ../shared/aws-semantics.md section 11 records the refusals of index
// changes under way; the definition checks below are DynamoDB's documented rules (on-demand
// tables only, at most 5 indexes, at most 4096 dimensions, search-schema attributes declared in
// AttributeDefinitions, one HASH attribute, one dimension count per vector attribute) in wording
// of ddbd's, in DynamoDB's "One or more parameter values were invalid: " frame, as no recording
// of them is known (docs/behaviour.md, "Vector search").
#pragma once

#include <vector>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

// At most this many vector indexes a table (UNCONFIRMED in aws-semantics.md; DynamoDB's quota page
// lists it).
inline constexpr size_t kMaxVectorIndexes = 5;
inline constexpr int64_t kMaxVectorDimensions = 4096;

// The first problem of `indexes` on a table of `billing` with `definitions`, given the names its
// other indexes already use.
Status ValidateVectorIndexes(const std::vector<VectorIndexDefinition>& indexes, BillingMode billing,
                             const std::vector<AttributeDefinition>& definitions,
                             const std::vector<std::string>& other_index_names);

// Whether attribute `name` is used by some index's search schema.
bool UsedBySearchSchema(const std::vector<VectorIndexDefinition>& indexes, const std::string& name);

}  // namespace ddbd
