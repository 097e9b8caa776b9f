// PutResourcePolicy's, GetResourcePolicy's and DeleteResourcePolicy's arguments. Policies are
// stored and returned with revision ids, never enforced: ddbd checks no permissions.
#pragma once

#include <optional>
#include <string>

#include "engine/api/durability.h"
#include "engine/error.h"

namespace ddbd {

// ExpectedRevisionId that asks for no policy to be there yet.
inline constexpr char kNoPolicy[] = "NO_POLICY";
// The largest policy document DynamoDB takes.
inline constexpr size_t kMaxPolicyBytes = 20 * 1024;

struct PutResourcePolicyArgs {
  std::string resource_arn;  // a table's or its stream's
  std::string policy;
  std::optional<std::string> expected_revision_id;
};

struct DeleteResourcePolicyArgs {
  std::string resource_arn;
  std::optional<std::string> expected_revision_id;
};

// PutResourcePolicy's and DeleteResourcePolicy's answer: the revision id, and the ticket.
struct PolicyOutcome {
  std::string revision_id;
  Ticket ticket;
};

}  // namespace ddbd
