// TagResource's, UntagResource's and ListTagsOfResource's arguments and answers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/durability.h"
#include "engine/api/tables.h"
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

}  // namespace ddbd
