// Resource-based policies on tables and streams: kept in the table's description (so they go
// through the catalog's one path, its log record, and restarts), one per resource ARN. Errors and
// their texts as measured against DynamoDB, except where marked.
#include "engine/policies/resource_policies.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <vector>

#include "engine/catalog/setting_rules.h"

namespace ddbd {
namespace {

constexpr char kNotFound[] = "Resource-based policy not found for the provided ResourceArn: ";

Error PolicyNotFound(const std::string& detail) {
  return {ErrorCode::kPolicyNotFound, kNotFound + detail};
}

std::vector<std::string> Split(const std::string& text, char separator, size_t parts) {
  std::vector<std::string> split;
  size_t from = 0;
  while (split.size() + 1 < parts) {
    const size_t at = text.find(separator, from);
    if (at == std::string::npos) break;
    split.push_back(text.substr(from, at - from));
    from = at + 1;
  }
  split.push_back(text.substr(from));
  return split;
}

}  // namespace

namespace {

// A resource policy's table and, for a stream's ARN, the stream's label.
struct PolicyTarget {
  std::string table_name;
  std::string stream_label;
};

// The table (and whether the stream) an ARN names, checked as DynamoDB checks it: shape,
// partition, service and region, account, resource kind, then the table and stream themselves.
Result<PolicyTarget> PolicyTargetOf(const TableMetadata& catalog, const std::string& arn) {
  if (!arn.starts_with("arn:")) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "ARNs must start with 'arn:': " + arn);
  }
  const std::vector<std::string> parts = Split(arn, ':', 6);
  if (parts.size() < 6 || parts[1] != "aws" || parts[2] != "dynamodb" ||
      parts[3] != catalog.region()) {
    return Error::Validation(std::string(kInvalidParameterValues) + "Invalid resource Arn: " + arn);
  }
  if (parts[4] != catalog.account_id()) {
    return Error::Validation(
        "This action is only supported by accounts that match the resource owner\u2019s account.");
  }
  const std::vector<std::string> resource = Split(parts[5], '/', 4);
  if (resource.size() < 2 || resource.size() == 3 || resource[0] != "table" ||
      resource[1].empty() ||
      (resource.size() == 4 && resource[2] != "stream" && resource[2] != "index")) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "Provided Arn is not a DynamoDB resource arn: " + arn);
  }
  if (resource.size() == 4 && resource[2] == "index") {
    // As measured, the text ends after the account.
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "Invalid resource arn provided, only table or stream is accepted. "
                             "Provided resource arn: arn:aws:dynamodb:" +
                             parts[3] + ":" + parts[4]);
  }
  PolicyTarget target{resource[1], resource.size() == 4 ? resource[3] : std::string()};
  const std::optional<TableDescription> table = catalog.Describe(target.table_name);
  if (!table) {
    return Error::TableResourceNotFound(target.table_name);
  }
  if (!target.stream_label.empty() && target.stream_label != table->latest_stream_label) {
    return Error::ResourceNotFound("Requested resource not found: Stream: " + target.stream_label +
                                   " not found for Table: " + target.table_name);
  }
  return target;
}

}  // namespace

Result<PolicyOutcome> PutResourcePolicy(TableMetadata& catalog, const Clock& clock,
                                        const PutResourcePolicyArgs& args) {
  auto target = PolicyTargetOf(catalog, args.resource_arn);
  if (!target.ok()) return target.error();
  if (Status checked = CheckResourcePolicy(args.policy); !checked.ok()) return checked.error();
  const std::string& name = target.value().table_name;
  std::string revision;
  Result<Ticket> changed = catalog.ChangeMetadata(name, [&](TableDescription& table) -> Status {
    auto& policies = table.resource_policies;
    auto current = std::find_if(policies.begin(), policies.end(), [&](const ResourcePolicy& p) {
      return p.resource_arn == args.resource_arn;
    });
    const bool exists = current != policies.end();
    if (args.expected_revision_id) {
      const std::string& expected = *args.expected_revision_id;
      if (expected == kNoPolicy && exists) {
        return PolicyNotFound("Requested policy update expecting none to be present for table " +
                              name + ", but a policy exists with revision id " +
                              current->revision_id + ".");
      }
      if (expected != kNoPolicy && !exists) return PolicyNotFound(args.resource_arn);
      if (expected != kNoPolicy && expected != current->revision_id) {
        return PolicyNotFound("Requested update for policy with revision id " + expected +
                              ", but the policy associated to target table " + name +
                              " has revision id " + current->revision_id + ".");
      }
    }
    if (exists && current->policy == args.policy) {  // the same document: the same revision
      revision = current->revision_id;
      return Ok{};
    }
    // Revision ids are times in ms, always rising.
    int64_t next = clock.NowMs();
    for (const ResourcePolicy& policy : policies) {
      int64_t kept = 0;
      const char* end = policy.revision_id.data() + policy.revision_id.size();
      std::from_chars(policy.revision_id.data(), end, kept);
      next = std::max(next, kept + 1);
    }
    revision = std::to_string(next);
    if (exists) {
      current->policy = args.policy;
      current->revision_id = revision;
    } else {
      policies.push_back({args.resource_arn, args.policy, revision});
    }
    return Ok{};
  });
  if (!changed.ok()) return changed.error();
  return PolicyOutcome{revision, changed.value()};
}

Result<ResourcePolicy> GetResourcePolicy(const TableMetadata& catalog,
                                         const std::string& resource_arn) {
  auto target = PolicyTargetOf(catalog, resource_arn);
  if (!target.ok()) return target.error();
  if (const std::optional<TableDescription> table = catalog.Describe(target.value().table_name)) {
    for (const ResourcePolicy& policy : table->resource_policies) {
      if (policy.resource_arn == resource_arn) return policy;
    }
  }
  return PolicyNotFound(resource_arn);
}

Result<PolicyOutcome> DeleteResourcePolicy(TableMetadata& catalog,
                                           const DeleteResourcePolicyArgs& args) {
  auto target = PolicyTargetOf(catalog, args.resource_arn);
  if (!target.ok()) return target.error();
  std::string removed;
  Result<Ticket> changed =
      catalog.ChangeMetadata(target.value().table_name, [&](TableDescription& table) -> Status {
        auto& policies = table.resource_policies;
        auto current = std::find_if(policies.begin(), policies.end(), [&](const ResourcePolicy& p) {
          return p.resource_arn == args.resource_arn;
        });
        if (current == policies.end()) return PolicyNotFound(args.resource_arn);
        if (args.expected_revision_id && *args.expected_revision_id != current->revision_id) {
          // Unconfirmed wording: PutResourcePolicy's.
          return PolicyNotFound(
              "Requested update for policy with revision id " + *args.expected_revision_id +
              ", but the policy associated to target table " + target.value().table_name +
              " has revision id " + current->revision_id + ".");
        }
        removed = current->revision_id;
        policies.erase(current);
        return Ok{};
      });
  if (!changed.ok()) return changed.error();
  return PolicyOutcome{removed, changed.value()};
}

}  // namespace ddbd
