// TagResource, UntagResource and ListTagsOfResource: a table's tags, by the table's ARN.
#include <string>

#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/wire/reader.h"

namespace ddbd::operations {
namespace {

// ResourceArn: absent is "Invalid TableArn", as DynamoDB answers it (rather than coral's null
// check: supplement.json's absence_answered_by_operation).
Result<std::string> TaggedArnOf(const std::optional<std::string_view>& arn) {
  if (!arn) return Error::Validation("Invalid TableArn");
  return std::string(*arn);
}

}  // namespace

Status TagResource(Engine& engine, const wire::TagResourceInput& in, json::Writer& response,
                   Ticket& ticket) {
  auto arn = TaggedArnOf(in.resource_arn);
  if (!arn.ok()) return arn.error();
  std::vector<Tag> tags = TagsOf(in.tags);
  // Unconfirmed beyond other emulators' records of it (DynamoDB's own spelling).
  if (tags.empty()) return Error::Validation("Atleast one Tag needs to be provided as Input.");
  if (Status characters = CheckTagCharacters(tags); !characters.ok()) return characters;
  auto tagged = engine.TagResource({std::move(arn.value()), std::move(tags)});
  if (!tagged.ok()) return tagged.error();
  ticket = tagged.value();
  // TagResource and UntagResource have no output shape: DynamoDB answers 200 with an empty body
  // (behaviours-to-match F4).
  (void)response;
  return Ok{};
}

Status UntagResource(Engine& engine, const wire::UntagResourceInput& in, json::Writer& response,
                     Ticket& ticket) {
  auto arn = TaggedArnOf(in.resource_arn);
  if (!arn.ok()) return arn.error();
  UntagResourceArgs args;
  for (const json::Value& key : in.tag_keys->GetArray()) {
    if (!key.IsNull()) args.tag_keys.emplace_back(*wire::String(&key));
  }
  // Unconfirmed: worded as TagResource's.
  if (args.tag_keys.empty()) {
    return Error::Validation("Atleast one Tag Key needs to be provided as Input.");
  }
  args.resource_arn = std::move(arn.value());
  auto untagged = engine.UntagResource(args);
  if (!untagged.ok()) return untagged.error();
  ticket = untagged.value();
  // TagResource and UntagResource have no output shape: DynamoDB answers 200 with an empty body
  // (behaviours-to-match F4).
  (void)response;
  return Ok{};
}

Status ListTagsOfResource(Engine& engine, const wire::ListTagsOfResourceInput& in,
                          json::Writer& response) {
  auto arn = TaggedArnOf(in.resource_arn);
  if (!arn.ok()) return arn.error();
  ListTagsOfResourceArgs args;
  args.resource_arn = std::move(arn.value());
  if (in.next_token) args.next_token = std::string(*in.next_token);
  auto listed = engine.ListTagsOfResource(args);
  if (!listed.ok()) return listed.error();
  wire::Write<wire::out::ListTagsOfResourceOutput>(response, [&](auto& out) {
    out.Tags([&](wire::out::TagList& list) {
      for (const Tag& tag : listed.value().tags) {
        list.Add([&](wire::out::Tag& one) {
          one.Key(tag.key);
          one.Value(tag.value);
        });
      }
    });
    if (listed.value().next_token) out.NextToken(*listed.value().next_token);
  });
  return Ok{};
}

}  // namespace ddbd::operations
