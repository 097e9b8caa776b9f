#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxTimeToLiveAttributeLength = 255;

}  // namespace

// UpdateTimeToLive echoes the specification it applied.
Status UpdateTimeToLive(Engine& engine, const json::Value& request, json::Writer& response,
                        Ticket& ticket) {
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  UpdateTimeToLiveArgs args;
  args.table_name = std::move(name.value());
  auto specification = json::AsStructure(json::Member(request, "TimeToLiveSpecification"),
                                         "TimeToLiveSpecification");
  if (!specification.ok()) return specification.error();
  if (specification.value() == nullptr) {
    errors.MustNotBeNull("timeToLiveSpecification");
  } else {
    const json::Value& spec = *specification.value();
    auto attribute = json::AsString(json::Member(spec, "AttributeName"));
    if (!attribute.ok()) return attribute.error();
    auto enabled = json::AsBoolean(json::Member(spec, "Enabled"));
    if (!enabled.ok()) return enabled.error();
    if (!attribute.value()) {
      errors.MustNotBeNull("timeToLiveSpecification.attributeName");
    } else {
      const std::string_view text = *attribute.value();
      if (text.empty()) errors.MinLength(text, "timeToLiveSpecification.attributeName", 1);
      if (text.size() > kMaxTimeToLiveAttributeLength) {
        errors.MaxLength(text, "timeToLiveSpecification.attributeName",
                         kMaxTimeToLiveAttributeLength);
      }
      args.specification.attribute_name = std::string(text);
    }
    if (!enabled.value()) {
      errors.MustNotBeNull("timeToLiveSpecification.enabled");
    } else {
      args.specification.enabled = *enabled.value();
    }
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto applied = engine.UpdateTimeToLive(args);
  if (!applied.ok()) return applied.error();
  ticket = applied.value().ticket;
  response.StartObject();
  response.Key("TimeToLiveSpecification");
  response.StartObject();
  response.Key("AttributeName");
  json::String(response, applied.value().attribute_name);
  response.Key("Enabled");
  response.Bool(applied.value().enabled);
  response.EndObject();
  response.EndObject();
  return Ok{};
}

Status DescribeTimeToLive(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto description = engine.DescribeTimeToLive(name.value());
  if (!description.ok()) return description.error();
  response.StartObject();
  response.Key("TimeToLiveDescription");
  response.StartObject();
  response.Key("TimeToLiveStatus");
  response.String(description.value().enabled ? "ENABLED" : "DISABLED");
  if (description.value().enabled) {
    response.Key("AttributeName");
    json::String(response, description.value().attribute_name);
  }
  response.EndObject();
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
