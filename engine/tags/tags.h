// TagResource's, UntagResource's and ListTagsOfResource's arguments and answers (engine/engine.h),
// and the rules every table's tags keep (CreateTable's Tags too).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/table_schema.h"
#include "engine/error.h"

namespace ddbd {

// User tags a table may have; tags whose keys start with "aws:" are DynamoDB's and not counted.
inline constexpr size_t kMaxTagsPerResource = 50;

struct TagResourceArgs {
  std::string resource_arn;
  std::vector<Tag> tags;
};

struct UntagResourceArgs {
  std::string resource_arn;
  std::vector<std::string> tag_keys;
};

struct ListTagsOfResourceArgs {
  std::string resource_arn;
  std::optional<std::string> next_token;
};

struct ListTagsOfResourceResult {
  std::vector<Tag> tags;
  std::optional<std::string> next_token;
};

// `tags` with `added` put in (a key already there takes the new value, in its place; a key
// repeated in `added` keeps the last value).
std::vector<Tag> MergeTags(std::vector<Tag> tags, const std::vector<Tag>& added);
// ValidationException for a user key starting with "aws:", or more than kMaxTagsPerResource user
// tags (both texts unconfirmed). Lengths are the protocol's shape checks.
Status CheckTags(const std::vector<Tag>& tags);

}  // namespace ddbd
