// The rules a table's tags, resource policy and replicas keep wherever they are set: CreateTable
// (engine/tables/) and the tag, policy and replica calls (engine/tags/, engine/policies/,
// engine/replicas/) share them here, so that none of those services stands on another.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/api/tables.h"
#include "engine/api/tags.h"
#include "engine/error.h"

namespace ddbd {

// `tags` with `added` put in (a key already there takes the new value, in its place; a key
// repeated in `added` keeps the last value).
std::vector<Tag> MergeTags(std::vector<Tag> tags, const std::vector<Tag>& added);
// ValidationException for a user key starting with "aws:", or more than kMaxTagsPerResource user
// tags (both texts unconfirmed). Lengths are the protocol's shape checks.
Status CheckTags(const std::vector<Tag>& tags);

// ValidationException for a document over kMaxPolicyBytes (wording unconfirmed). Its contents are
// not checked: nothing is enforced.
Status CheckResourcePolicy(const std::string& policy);

// ValidationException when `region` created one of the table's replicas within 24 hours and that
// replica is still there: it cannot leave the set yet (AWS-recorded, DDB-TABLE-266/267).
Status CheckReplicaDeletion(const TableDescription& table, const std::string& region,
                            int64_t now_ms);

}  // namespace ddbd
