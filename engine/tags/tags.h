// The rules every table's tags keep (TagResource, CreateTable's Tags).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/tags.h"
#include "engine/catalog/table_metadata.h"
#include "engine/error.h"

namespace ddbd {

// `tags` with `added` put in (a key already there takes the new value, in its place; a key
// repeated in `added` keeps the last value).
std::vector<Tag> MergeTags(std::vector<Tag> tags, const std::vector<Tag>& added);
// ValidationException for a user key starting with "aws:", or more than kMaxTagsPerResource user
// tags (both texts unconfirmed). Lengths are the protocol's shape checks.
Status CheckTags(const std::vector<Tag>& tags);

// The tag operations, on the tables `catalog` holds (Engine::TagResource and its kin delegate
// here): ARNs as this engine writes them; DynamoDB's ARN errors.
Result<Ticket> TagResource(TableMetadata& catalog, const TagResourceArgs& args);
Result<Ticket> UntagResource(TableMetadata& catalog, const UntagResourceArgs& args);
Result<ListTagsOfResourceResult> ListTagsOfResource(const TableMetadata& catalog,
                                                    const ListTagsOfResourceArgs& args);

}  // namespace ddbd
