// The rules every table's tags keep (TagResource, CreateTable's Tags).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/tags.h"
#include "engine/error.h"

namespace ddbd {

// `tags` with `added` put in (a key already there takes the new value, in its place; a key
// repeated in `added` keeps the last value).
std::vector<Tag> MergeTags(std::vector<Tag> tags, const std::vector<Tag>& added);
// ValidationException for a user key starting with "aws:", or more than kMaxTagsPerResource user
// tags (both texts unconfirmed). Lengths are the protocol's shape checks.
Status CheckTags(const std::vector<Tag>& tags);

}  // namespace ddbd
