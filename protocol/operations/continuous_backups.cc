// DescribeContinuousBackups and UpdateContinuousBackups: point-in-time recovery settings.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

// Both operations' answer (`Output`: DescribeContinuousBackupsOutput or
// UpdateContinuousBackupsOutput).
template <class Output>
void WriteBackupsDescription(json::Writer& response,
                             const ContinuousBackupsDescription& described) {
  wire::Write<Output>(response, [&](Output& out) {
    out.ContinuousBackupsDescription([&](wire::out::ContinuousBackupsDescription& backups) {
      backups.ContinuousBackupsStatus(wire::ContinuousBackupsStatus::kEnabled);
      backups.PointInTimeRecoveryDescription(
          [&](wire::out::PointInTimeRecoveryDescription& recovery) {
            if (!described.point_in_time_recovery_enabled) {
              recovery.PointInTimeRecoveryStatus(wire::PointInTimeRecoveryStatus::kDisabled);
              return;
            }
            recovery.PointInTimeRecoveryStatus(wire::PointInTimeRecoveryStatus::kEnabled);
            recovery.RecoveryPeriodInDays(described.recovery_period_in_days);
            recovery.EarliestRestorableDateTime(described.earliest_restorable_ms);
            recovery.LatestRestorableDateTime(described.latest_restorable_ms);
          });
    });
  });
}

}  // namespace

Status DescribeContinuousBackups(Engine& engine, const wire::DescribeContinuousBackupsInput& in,
                                 json::Writer& response) {
  auto described = engine.DescribeContinuousBackups(TableNameOf(engine, in.table_name));
  if (!described.ok()) return described.error();
  WriteBackupsDescription<wire::out::DescribeContinuousBackupsOutput>(response, described.value());
  return Ok{};
}

Status UpdateContinuousBackups(Engine& engine, const wire::UpdateContinuousBackupsInput& in,
                               json::Writer& response, Ticket& ticket) {
  wire::PointInTimeRecoverySpecification specification;
  wire::View(*in.point_in_time_recovery_specification, specification);
  UpdateContinuousBackupsArgs args;
  args.table_name = TableNameOf(engine, in.table_name);
  args.point_in_time_recovery_enabled = specification.point_in_time_recovery_enabled;
  args.recovery_period_in_days = specification.recovery_period_in_days;
  auto described = engine.UpdateContinuousBackups(args);
  if (!described.ok()) return described.error();
  ticket = described.value().ticket;
  WriteBackupsDescription<wire::out::UpdateContinuousBackupsOutput>(response, described.value());
  return Ok{};
}

}  // namespace ddbd::operations
