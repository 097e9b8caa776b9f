// Tags on tables: TagResource, UntagResource, ListTagsOfResource. A table's tags are part of its
// description, so a change goes through the catalog's one path (and its log record) like any
// other, and survives restarts with the table.
#include "engine/tags/tag_operations.h"

#include <algorithm>
#include <shared_mutex>

#include "engine/catalog/setting_rules.h"

namespace ddbd {
namespace {

// DynamoDB's texts as clients and other emulators record them: "ARNs must start with 'arn:'",
// "Invalid TableArn: ..." (an index's ARN, say) and "Requested resource not found: ResourcArn:
// <arn> not found" (sic).
Error InvalidResourceArn(const std::string& arn) {
  if (!arn.starts_with("arn:")) return Error::Validation("ARNs must start with 'arn:'");
  return Error::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
}

Error ArnNotFound(const std::string& arn) {
  return Error::ResourceNotFound("Requested resource not found: ResourcArn: " + arn + " not found");
}

// A table ARN's account: "arn:aws:dynamodb:<region>:<account>:table/...", or empty.
std::string_view AccountOf(std::string_view arn) {
  size_t start = 0;
  for (int field = 0; field < 4; ++field) {
    start = arn.find(':', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  const size_t end = arn.find(':', start);
  return end == std::string_view::npos ? std::string_view() : arn.substr(start, end - start);
}

// The table a tag request names: its ARN as this engine writes them (its region and account).
// "arn:" ARNs of something else (an index, another service) are ValidationException; a table of
// another account is AccessDeniedException, as DynamoDB answers a caller without a policy there
// (behaviours-to-match F4; the caller named as the account's root, the text inferred).
Result<std::string> TableOfArn(const TableMetadata& catalog, const std::string& arn,
                               std::string_view operation) {
  if (!arn.starts_with("arn:")) return InvalidResourceArn(arn);
  const std::string prefix = catalog.TableArn("");
  if (!arn.starts_with(prefix)) {
    const std::string_view account = AccountOf(arn);
    if (arn.find(":table/") != std::string::npos && !account.empty() &&
        account != catalog.account_id()) {
      return Error(ErrorCode::kAccessDenied, "User: arn:aws:iam::" + catalog.account_id() +
                                                 ":root is not authorized to perform: dynamodb:" +
                                                 std::string(operation) + " on resource: " + arn);
    }
    // Another region or account: no such table here (unconfirmed for tags; resource policies
    // measured ValidationException for these).
    if (arn.find(":table/") != std::string::npos &&
        arn.find('/', arn.find(":table/") + 7) == std::string::npos) {
      return ArnNotFound(arn);
    }
    return InvalidResourceArn(arn);
  }
  const std::string name = arn.substr(prefix.size());
  if (name.empty() || name.find('/') != std::string::npos) return InvalidResourceArn(arn);
  return name;  // whether the table is here, the caller sees under its own lock
}

Result<Ticket> ChangeTags(TableMetadata& catalog, const std::string& arn,
                          std::string_view operation,
                          const std::function<std::vector<Tag>(std::vector<Tag>)>& change) {
  auto name = TableOfArn(catalog, arn, operation);
  if (!name.ok()) return name.error();
  Result<Ticket> changed = catalog.ChangeMetadata(name.value(), [&](TableDescription& table) {
    std::vector<Tag> tags = change(std::move(table.tags));
    if (Status checked = CheckTags(tags); !checked.ok()) return checked;
    table.tags = std::move(tags);
    return Status(Ok{});
  });
  // The table went between the look-up and the change: the tag operations' own wording.
  if (!changed.ok() && changed.error().code() == ErrorCode::kResourceNotFound) {
    return ArnNotFound(arn);
  }
  return changed;
}

}  // namespace

Result<Ticket> TagResource(TableMetadata& catalog, const TagResourceArgs& args) {
  return ChangeTags(catalog, args.resource_arn, "TagResource",
                    [&](std::vector<Tag> tags) { return MergeTags(std::move(tags), args.tags); });
}

Result<Ticket> UntagResource(TableMetadata& catalog, const UntagResourceArgs& args) {
  return ChangeTags(catalog, args.resource_arn, "UntagResource", [&](std::vector<Tag> tags) {
    // A key the table does not have is not an error.
    std::erase_if(tags, [&](const Tag& tag) {
      return std::find(args.tag_keys.begin(), args.tag_keys.end(), tag.key) != args.tag_keys.end();
    });
    return tags;
  });
}

Result<ListTagsOfResourceResult> ListTagsOfResource(const TableMetadata& catalog,
                                                    const ListTagsOfResourceArgs& args) {
  auto name = TableOfArn(catalog, args.resource_arn, "ListTagsOfResource");
  if (!name.ok()) return name.error();
  const std::optional<TableDescription> table = catalog.Describe(name.value());
  if (!table) return ArnNotFound(args.resource_arn);
  // Every tag in one page (a table has at most 50 of its own); a NextToken names the key after
  // which to go on.
  ListTagsOfResourceResult result;
  const std::vector<Tag>& tags = table->tags;
  auto from = tags.begin();
  if (args.next_token) {
    from = std::find_if(tags.begin(), tags.end(),
                        [&](const Tag& tag) { return tag.key == *args.next_token; });
    if (from != tags.end()) ++from;
  }
  result.tags.assign(from, tags.end());
  return result;
}

}  // namespace ddbd
