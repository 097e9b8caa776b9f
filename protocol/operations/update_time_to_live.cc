#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
// UpdateTimeToLive echoes the specification it applied.
Status UpdateTimeToLive(Engine& engine, const json::Value& request, json::Writer& response,
                        Ticket& ticket) {
  wire::UpdateTimeToLiveInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  wire::TimeToLiveSpecification specification;
  wire::View(*in.time_to_live_specification, specification);
  UpdateTimeToLiveArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.specification.attribute_name = std::string(specification.attribute_name);
  args.specification.enabled = specification.enabled;
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
  wire::DescribeTimeToLiveInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  auto description = engine.DescribeTimeToLive(TableNameOf(engine, in.table_name));
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
