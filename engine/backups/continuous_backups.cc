// Point-in-time recovery settings: part of the table's description, changed through the catalog's
// one path (a metadata change), so they are logged and survive restarts.
#include <algorithm>
#include <initializer_list>
#include <mutex>
#include <shared_mutex>

#include "engine/backups/point_in_time.h"

namespace ddbd {

ContinuousBackupsDescription DescribeRestorableWindow(const TableDescription& table,
                                                      int64_t history_earliest_ms,
                                                      int64_t max_age_ms, int64_t lag_ms,
                                                      int64_t now_ms) {
  ContinuousBackupsDescription description;
  description.point_in_time_recovery_enabled = table.point_in_time_recovery_since_ms != 0;
  if (!description.point_in_time_recovery_enabled) return description;
  description.recovery_period_in_days = table.recovery_period_in_days;
  description.earliest_restorable_ms =
      std::max({table.point_in_time_recovery_since_ms, now_ms - max_age_ms, history_earliest_ms});
  description.latest_restorable_ms = std::max(description.earliest_restorable_ms, now_ms - lag_ms);
  return description;
}

Result<ContinuousBackupsDescription> DescribeContinuousBackups(const Catalog& catalog,
                                                               const std::string& table_name) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::shared_lock lock(catalog.mutex);
  const TableEntry* entry = catalog.FindLocked(table_name, now_ms);
  if (entry == nullptr) return Error::TableNotFound(table_name);
  return DescribeRestorableWindow(
      entry->description, entry->history ? entry->history->earliest_ms() : 0,
      catalog.HistoryAgeMs(entry->description), catalog.options.pitr_lag_ms, now_ms);
}

Result<ContinuousBackupsOutcome> UpdateContinuousBackups(Catalog& catalog,
                                                         const UpdateContinuousBackupsArgs& args) {
  const int64_t now_ms = catalog.clock.NowMs();
  ContinuousBackupsOutcome described;
  Result<Ticket> changed = catalog.ChangeMetadata(args.table_name, [&](TableDescription& table) {
    if (!args.point_in_time_recovery_enabled) {
      table.point_in_time_recovery_since_ms = 0;
    } else {
      // Enabling again keeps the history; a new period applies to it.
      if (table.point_in_time_recovery_since_ms == 0) {
        table.point_in_time_recovery_since_ms = now_ms;
      }
      table.recovery_period_in_days =
          args.recovery_period_in_days.value_or(kMaxRecoveryPeriodInDays);
    }
    // A history starts with the change (or goes on, when the setting only changes its period).
    static_cast<ContinuousBackupsDescription&>(described) = DescribeRestorableWindow(
        table, 0, catalog.HistoryAgeMs(table), catalog.options.pitr_lag_ms, now_ms);
    return Status(Ok{});
  });
  if (!changed.ok()) {
    if (changed.error().code() == ErrorCode::kResourceNotFound) {
      return Error::TableNotFound(args.table_name);
    }
    return changed.error();
  }
  described.ticket = changed.value();
  return described;
}

}  // namespace ddbd
