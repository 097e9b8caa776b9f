// PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: policies stored on a table or
// its stream, returned with revision ids, never enforced.
#include <string>

#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

// PutResourcePolicy's and DeleteResourcePolicy's answer (`Output`: either).
template <class Output>
void WriteRevision(json::Writer& response, const std::string& revision) {
  wire::Write<Output>(response, [&](Output& out) { out.RevisionId(revision); });
}

}  // namespace

Status PutResourcePolicy(Engine& engine, const wire::PutResourcePolicyInput& in,
                         json::Writer& response, Ticket& ticket) {
  // ConfirmRemoveSelfResourceAccess confirms that a policy may lock its writer out: nothing here
  // is enforced, so nothing to do.
  PutResourcePolicyArgs args;
  args.resource_arn = std::string(in.resource_arn);
  args.policy = std::string(in.policy);
  if (in.expected_revision_id) args.expected_revision_id = std::string(*in.expected_revision_id);
  auto revision = engine.PutResourcePolicy(args);
  if (!revision.ok()) return revision.error();
  ticket = revision.value().ticket;
  WriteRevision<wire::out::PutResourcePolicyOutput>(response, revision.value().revision_id);
  return Ok{};
}

Status GetResourcePolicy(Engine& engine, const wire::GetResourcePolicyInput& in,
                         json::Writer& response) {
  auto policy = engine.GetResourcePolicy(std::string(in.resource_arn));
  if (!policy.ok()) return policy.error();
  wire::Write<wire::out::GetResourcePolicyOutput>(response, [&](auto& out) {
    out.Policy(policy.value().policy);
    out.RevisionId(policy.value().revision_id);
  });
  return Ok{};
}

Status DeleteResourcePolicy(Engine& engine, const wire::DeleteResourcePolicyInput& in,
                            json::Writer& response, Ticket& ticket) {
  std::optional<std::string> expected;
  if (in.expected_revision_id) expected = std::string(*in.expected_revision_id);
  auto removed = engine.DeleteResourcePolicy({std::string(in.resource_arn), std::move(expected)});
  if (!removed.ok()) return removed.error();
  ticket = removed.value().ticket;
  WriteRevision<wire::out::DeleteResourcePolicyOutput>(response, removed.value().revision_id);
  return Ok{};
}

}  // namespace ddbd::operations
