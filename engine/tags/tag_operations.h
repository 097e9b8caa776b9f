// The tag operations on tables; the rules every table's tags keep are
// engine/catalog/setting_rules.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/tags.h"
#include "engine/catalog/table_metadata.h"
#include "engine/error.h"

namespace ddbd {

// The tag operations, on the tables `catalog` holds (Engine::TagResource and its kin delegate
// here): ARNs as this engine writes them; DynamoDB's ARN errors.
Result<Ticket> TagResource(TableMetadata& catalog, const TagResourceArgs& args);
Result<Ticket> UntagResource(TableMetadata& catalog, const UntagResourceArgs& args);
Result<ListTagsOfResourceResult> ListTagsOfResource(const TableMetadata& catalog,
                                                    const ListTagsOfResourceArgs& args);

}  // namespace ddbd
