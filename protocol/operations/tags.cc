// TagResource, UntagResource and ListTagsOfResource: a table's tags, by the table's ARN.
#include <string>

#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxTagKeyLength = 128;

// ResourceArn: absent is "Invalid TableArn", as DynamoDB answers it (rather than coral's null
// check).
Result<std::string> DecodeTaggedArn(const json::Value& request, ConstraintErrors& errors) {
  auto arn = DecodeResourceArn(request, errors);
  if (!arn.ok()) return arn.error();
  if (!arn.value()) return Error::Validation("Invalid TableArn");
  return std::move(*arn.value());
}

}  // namespace

Status TagResource(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket) {
  ConstraintErrors errors;
  auto arn = DecodeTaggedArn(request, errors);
  if (!arn.ok()) return arn.error();
  const json::Value* listed = json::Member(request, "Tags");
  auto tags = DecodeTags(listed, errors);
  if (!tags.ok()) return tags.error();
  if (listed == nullptr) errors.MustNotBeNull("tags");
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  // Unconfirmed beyond other emulators' records of it (DynamoDB's own spelling).
  if (tags.value().empty())
    return Error::Validation("Atleast one Tag needs to be provided as Input.");
  auto tagged = engine.TagResource({std::move(arn.value()), std::move(tags.value())});
  if (!tagged.ok()) return tagged.error();
  ticket = tagged.value();
  response.StartObject();
  response.EndObject();
  return Ok{};
}

Status UntagResource(Engine& engine, const json::Value& request, json::Writer& response,
                     Ticket& ticket) {
  ConstraintErrors errors;
  auto arn = DecodeTaggedArn(request, errors);
  if (!arn.ok()) return arn.error();
  auto list = json::AsList(json::Member(request, "TagKeys"));
  if (!list.ok()) return list.error();
  UntagResourceArgs args;
  if (list.value() == nullptr) {
    errors.MustNotBeNull("tagKeys");
  } else {
    const json::Value& keys = *list.value();
    for (rapidjson::SizeType i = 0; i < keys.Size(); ++i) {
      auto key = json::AsString(&keys[i]);
      if (!key.ok()) return key.error();
      const std::string path = "tagKeys." + std::to_string(i + 1) + ".member";
      if (!key.value()) {
        errors.MustNotBeNull(path);
        continue;
      }
      if (key.value()->empty()) errors.MinLength(*key.value(), path, 1);
      if (key.value()->size() > kMaxTagKeyLength) {
        errors.MaxLength(*key.value(), path, kMaxTagKeyLength);
      }
      args.tag_keys.emplace_back(*key.value());
    }
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  // Unconfirmed: worded as TagResource's.
  if (args.tag_keys.empty()) {
    return Error::Validation("Atleast one Tag Key needs to be provided as Input.");
  }
  args.resource_arn = std::move(arn.value());
  auto untagged = engine.UntagResource(args);
  if (!untagged.ok()) return untagged.error();
  ticket = untagged.value();
  response.StartObject();
  response.EndObject();
  return Ok{};
}

Status ListTagsOfResource(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  auto arn = DecodeTaggedArn(request, errors);
  if (!arn.ok()) return arn.error();
  auto token = json::AsString(json::Member(request, "NextToken"));
  if (!token.ok()) return token.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  ListTagsOfResourceArgs args;
  args.resource_arn = std::move(arn.value());
  if (token.value()) args.next_token = std::string(*token.value());
  auto listed = engine.ListTagsOfResource(args);
  if (!listed.ok()) return listed.error();
  response.StartObject();
  response.Key("Tags");
  response.StartArray();
  for (const Tag& tag : listed.value().tags) {
    response.StartObject();
    response.Key("Key");
    json::String(response, tag.key);
    response.Key("Value");
    json::String(response, tag.value);
    response.EndObject();
  }
  response.EndArray();
  if (listed.value().next_token) {
    response.Key("NextToken");
    json::String(response, *listed.value().next_token);
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
