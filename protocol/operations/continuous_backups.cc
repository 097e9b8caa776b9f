// DescribeContinuousBackups and UpdateContinuousBackups: point-in-time recovery settings.
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/validation_messages.h"

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
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto described = engine.DescribeContinuousBackups(name.value());
  if (!described.ok()) return described.error();
  WriteDescription(response, described.value());
  return Ok{};
}

Status UpdateContinuousBackups(Engine& engine, const json::Value& request, json::Writer& response,
                               Ticket& ticket) {
  ConstraintErrors errors;
  auto name = DecodeTableReference(request, engine, errors);
  if (!name.ok()) return name.error();
  UpdateContinuousBackupsArgs args;
  args.table_name = std::move(name.value());
  constexpr std::string_view kPath = "pointInTimeRecoverySpecification";
  auto specification = json::AsStructure(json::Member(request, "PointInTimeRecoverySpecification"),
                                         "PointInTimeRecoverySpecification");
  if (!specification.ok()) return specification.error();
  if (specification.value() == nullptr) {
    errors.MustNotBeNull(kPath);
  } else {
    const json::Value& spec = *specification.value();
    auto enabled = json::AsBoolean(json::Member(spec, "PointInTimeRecoveryEnabled"));
    if (!enabled.ok()) return enabled.error();
    if (!enabled.value()) {
      errors.MustNotBeNull(std::string(kPath) + ".pointInTimeRecoveryEnabled");
    } else {
      args.point_in_time_recovery_enabled = *enabled.value();
    }
    auto days = json::AsInteger(json::Member(spec, "RecoveryPeriodInDays"));
    if (!days.ok()) return days.error();
    if (days.value()) {
      const std::string path = std::string(kPath) + ".recoveryPeriodInDays";
      if (*days.value() < 1) errors.MinValue(*days.value(), path, 1);
      if (*days.value() > kMaxRecoveryPeriodInDays) {
        errors.MaxValue(*days.value(), path, kMaxRecoveryPeriodInDays);
      }
      args.recovery_period_in_days = *days.value();
    }
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  auto described = engine.UpdateContinuousBackups(args);
  if (!described.ok()) return described.error();
  ticket = described.value().ticket;
  WriteDescription(response, described.value());
  return Ok{};
}

}  // namespace ddbd::operations
