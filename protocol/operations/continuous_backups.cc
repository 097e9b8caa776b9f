// DescribeContinuousBackups and UpdateContinuousBackups: point-in-time recovery settings.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

void WriteDescription(json::Writer& response, const ContinuousBackupsDescription& described) {
  response.StartObject();
  response.Key("ContinuousBackupsDescription");
  response.StartObject();
  response.Key("ContinuousBackupsStatus");
  response.String("ENABLED");
  response.Key("PointInTimeRecoveryDescription");
  response.StartObject();
  response.Key("PointInTimeRecoveryStatus");
  if (!described.point_in_time_recovery_enabled) {
    response.String("DISABLED");
  } else {
    response.String("ENABLED");
    response.Key("RecoveryPeriodInDays");
    response.Int64(described.recovery_period_in_days);
    response.Key("EarliestRestorableDateTime");
    json::EpochSeconds(response, described.earliest_restorable_ms);
    response.Key("LatestRestorableDateTime");
    json::EpochSeconds(response, described.latest_restorable_ms);
  }
  response.EndObject();
  response.EndObject();
  response.EndObject();
}

}  // namespace

Status DescribeContinuousBackups(Engine& engine, const json::Value& request,
                                 json::Writer& response) {
  wire::DescribeContinuousBackupsInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  auto described = engine.DescribeContinuousBackups(TableNameOf(engine, in.table_name));
  if (!described.ok()) return described.error();
  WriteDescription(response, described.value());
  return Ok{};
}

Status UpdateContinuousBackups(Engine& engine, const json::Value& request, json::Writer& response,
                               Ticket& ticket) {
  wire::UpdateContinuousBackupsInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  wire::PointInTimeRecoverySpecification specification;
  wire::View(*in.point_in_time_recovery_specification, specification);
  UpdateContinuousBackupsArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.point_in_time_recovery_enabled = specification.point_in_time_recovery_enabled;
  args.recovery_period_in_days = specification.recovery_period_in_days;
  auto described = engine.UpdateContinuousBackups(args);
  if (!described.ok()) return described.error();
  ticket = described.value().ticket;
  WriteDescription(response, described.value());
  return Ok{};
}

}  // namespace ddbd::operations
