// DescribeContinuousBackups' and UpdateContinuousBackups' arguments and answers (engine/engine.h).
// Point-in-time recovery is a setting of the table (stored, described, persisted); while it is on,
// the table keeps a history to restore from (engine/storage/point_in_time_history.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/api/durability.h"
#include "engine/api/tables.h"

namespace ddbd {

// DynamoDB's default and largest recovery period.
inline constexpr int64_t kMaxRecoveryPeriodInDays = 35;

struct UpdateContinuousBackupsArgs {
  std::string table_name;
  bool point_in_time_recovery_enabled = false;
  std::optional<int64_t> recovery_period_in_days;  // 1..35; absent: 35
};

// Continuous backups are always ENABLED for a table, as in DynamoDB; point-in-time recovery is
// what can be switched.
struct ContinuousBackupsDescription {
  bool point_in_time_recovery_enabled = false;
  int64_t recovery_period_in_days = kMaxRecoveryPeriodInDays;  // when enabled
  int64_t earliest_restorable_ms = 0;                          // when enabled
  int64_t latest_restorable_ms = 0;                            // when enabled
};

// The restorable window of `table` at `now_ms`: from when point-in-time recovery was enabled,
// no further back than `max_age_ms` or what its history still holds (`history_earliest_ms`), to
// `lag_ms` behind now (never before the earliest).
ContinuousBackupsDescription DescribeRestorableWindow(const TableDescription& table,
                                                      int64_t history_earliest_ms,
                                                      int64_t max_age_ms, int64_t lag_ms,
                                                      int64_t now_ms);

struct ContinuousBackupsOutcome : ContinuousBackupsDescription {
  Ticket ticket;
};

}  // namespace ddbd
