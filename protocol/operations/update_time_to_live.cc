#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
// UpdateTimeToLive echoes the specification it applied.
Status UpdateTimeToLive(Engine& engine, const wire::UpdateTimeToLiveInput& in,
                        json::Writer& response, Ticket& ticket) {
  wire::TimeToLiveSpecification specification;
  wire::View(*in.time_to_live_specification, specification);
  UpdateTimeToLiveArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.specification.attribute_name = std::string(specification.attribute_name);
  args.specification.enabled = specification.enabled;
  auto applied = engine.UpdateTimeToLive(args);
  if (!applied.ok()) return applied.error();
  ticket = applied.value().ticket;
  wire::Write<wire::out::UpdateTimeToLiveOutput>(response, [&](auto& out) {
    out.TimeToLiveSpecification([&](wire::out::TimeToLiveSpecification& applied_specification) {
      applied_specification.AttributeName(applied.value().attribute_name);
      applied_specification.Enabled(applied.value().enabled);
    });
  });
  return Ok{};
}

Status DescribeTimeToLive(Engine& engine, const wire::DescribeTimeToLiveInput& in,
                          json::Writer& response) {
  auto description = engine.DescribeTimeToLive(TableNameOf(engine, in.table_name));
  if (!description.ok()) return description.error();
  wire::Write<wire::out::DescribeTimeToLiveOutput>(response, [&](auto& out) {
    out.TimeToLiveDescription([&](wire::out::TimeToLiveDescription& described) {
      described.TimeToLiveStatus(description.value().enabled ? wire::TimeToLiveStatus::kEnabled
                                                             : wire::TimeToLiveStatus::kDisabled);
      if (description.value().enabled) described.AttributeName(description.value().attribute_name);
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
