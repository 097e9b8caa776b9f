// DescribeContinuousBackups' and UpdateContinuousBackups' arguments and answers (engine/engine.h).
// Point-in-time recovery is a setting here (stored, described, persisted); restoring to a point in
// time is not built yet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ddbd {

// DynamoDB's default and largest recovery period.
inline constexpr int64_t kMaxRecoveryPeriodInDays = 35;
// How far behind now the latest restorable time is.
inline constexpr int64_t kRestorableLagMs = 5 * 60 * 1000;

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

}  // namespace ddbd
