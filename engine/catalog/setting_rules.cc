#include "engine/catalog/setting_rules.h"

#include <algorithm>

#include "engine/api/policies.h"
#include "engine/clock.h"

namespace ddbd {
namespace {

// "aws:" in any letter case is AWS's.
bool Reserved(const std::string& key) {
  if (key.size() < 4 || key[3] != ':') return false;
  for (size_t i = 0; i < 3; ++i) {
    if ((key[i] | 0x20) != "aws"[i]) return false;
  }
  return true;
}

}  // namespace

std::vector<Tag> MergeTags(std::vector<Tag> tags, const std::vector<Tag>& added) {
  for (const Tag& tag : added) {
    auto it = std::find_if(tags.begin(), tags.end(),
                           [&](const Tag& kept) { return kept.key == tag.key; });
    if (it == tags.end()) {
      tags.push_back(tag);
    } else {
      it->value = tag.value;
    }
  }
  return tags;
}

Status CheckTags(const std::vector<Tag>& tags) {
  size_t user_tags = 0;
  for (const Tag& tag : tags) {
    // Unconfirmed wording: DynamoDB refuses both, its texts are not recorded anywhere we found.
    if (Reserved(tag.key)) {
      return Error::Validation(
          "One or more parameter values were invalid: Tag keys starting with 'aws:' are "
          "reserved for AWS use");
    }
    ++user_tags;
  }
  if (user_tags > kMaxTagsPerResource) {
    return Error::Validation(
        "One or more parameter values were invalid: The number of tags exceeds the limit of 50 "
        "tags per resource");
  }
  return Ok{};
}

Status CheckResourcePolicy(const std::string& policy) {
  if (policy.size() > kMaxPolicyBytes) {
    // Unconfirmed wording.
    return Error::Validation(
        "One or more parameter values were invalid: Resource-based policy exceeds the maximum "
        "size of 20 KB");
  }
  return Ok{};
}

Status CheckReplicaDeletion(const TableDescription& table, const std::string& region,
                            int64_t now_ms) {
  for (const ReplicaDescription& replica : table.replicas) {
    if (replica.region_name != region && replica.source_region == region &&
        now_ms - replica.created_ms < kDayMs) {
      return Error::Validation(
          "Replica cannot be deleted because it has acted as a source region for new replica(s) "
          "being added to the table in the last 24 hours.");
    }
  }
  return Ok{};
}

}  // namespace ddbd
