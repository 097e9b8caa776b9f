// PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: policies stored on a table or
// its stream, returned with revision ids, never enforced.
#include <string>

#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxRevisionIdLength = 255;

Result<std::string> DecodeArn(const json::Value& request, ConstraintErrors& errors) {
  auto arn = DecodeResourceArn(request, errors);
  if (!arn.ok()) return arn.error();
  if (!arn.value()) errors.MustNotBeNull("resourceArn");
  return arn.value().value_or("");
}

Result<std::optional<std::string>> DecodeExpectedRevision(const json::Value& request,
                                                          ConstraintErrors& errors) {
  auto revision = json::AsString(json::Member(request, "ExpectedRevisionId"));
  if (!revision.ok()) return revision.error();
  if (!revision.value()) return std::optional<std::string>();
  const std::string_view text = *revision.value();
  if (text.empty()) errors.MinLength(text, "expectedRevisionId", 1);
  if (text.size() > kMaxRevisionIdLength) {
    errors.MaxLength(text, "expectedRevisionId", kMaxRevisionIdLength);
  }
  return std::optional<std::string>(std::string(text));
}

void WriteRevision(json::Writer& response, const std::string& revision) {
  response.StartObject();
  response.Key("RevisionId");
  json::String(response, revision);
  response.EndObject();
}

}  // namespace

Status PutResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response,
                         Ticket& ticket) {
  ConstraintErrors errors;
  auto arn = DecodeArn(request, errors);
  if (!arn.ok()) return arn.error();
  auto policy = json::AsString(json::Member(request, "Policy"));
  if (!policy.ok()) return policy.error();
  if (!policy.value()) errors.MustNotBeNull("policy");
  auto expected = DecodeExpectedRevision(request, errors);
  if (!expected.ok()) return expected.error();
  // Confirms that a policy may lock its writer out: nothing here is enforced, so nothing to do.
  auto confirm = json::AsBoolean(json::Member(request, "ConfirmRemoveSelfResourceAccess"));
  if (!confirm.ok()) return confirm.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  PutResourcePolicyArgs args;
  args.resource_arn = std::move(arn.value());
  args.policy = std::string(*policy.value());
  args.expected_revision_id = std::move(expected.value());
  auto revision = engine.PutResourcePolicy(args);
  if (!revision.ok()) return revision.error();
  ticket = revision.value().ticket;
  WriteRevision(response, revision.value().revision_id);
  return Ok{};
}

Status GetResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  auto arn = DecodeArn(request, errors);
  if (!arn.ok()) return arn.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto policy = engine.GetResourcePolicy(arn.value());
  if (!policy.ok()) return policy.error();
  response.StartObject();
  response.Key("Policy");
  json::String(response, policy.value().policy);
  response.Key("RevisionId");
  json::String(response, policy.value().revision_id);
  response.EndObject();
  return Ok{};
}

Status DeleteResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response,
                            Ticket& ticket) {
  ConstraintErrors errors;
  auto arn = DecodeArn(request, errors);
  if (!arn.ok()) return arn.error();
  auto expected = DecodeExpectedRevision(request, errors);
  if (!expected.ok()) return expected.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto removed = engine.DeleteResourcePolicy({std::move(arn.value()), std::move(expected.value())});
  if (!removed.ok()) return removed.error();
  ticket = removed.value().ticket;
  WriteRevision(response, removed.value().revision_id);
  return Ok{};
}

}  // namespace ddbd::operations
