// On-demand backups' arguments and answers (CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup, RestoreTableFromBackup, RestoreTableToPointInTime), and what a backup holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

enum class BackupStatus { kCreating, kAvailable, kDeleted };

struct BackupDetails {
  std::string backup_arn;   // the table's ARN, "/backup/", creation ms and 8 hex digits
  std::string backup_name;  // not unique: each CreateBackup makes another backup
  int64_t backup_size_bytes = 0;
  BackupStatus backup_status = BackupStatus::kAvailable;
  int64_t backup_creation_ms = 0;
  // SYSTEM: kept by DynamoDB when a table with point-in-time recovery is deleted; it expires and
  // cannot be deleted. USER otherwise (never expires).
  bool system = false;
  int64_t backup_expiry_ms = 0;  // SYSTEM only
};

// How long DynamoDB keeps the SYSTEM backup of a deleted table.
inline constexpr int64_t kSystemBackupLifeMs = int64_t{35} * 24 * 3'600'000;

// DescribeBackup's and DeleteBackup's answer. `source` is the table as backed up: its name, id,
// ARN, keys, billing and throughput, indexes, stream and Time to Live settings, SSE and counts.
struct BackupDescription {
  BackupDetails details;
  TableDescription source;
};

// A backup: its description and the items it holds (blobs and sizes, as the table stores them).
struct CreateBackupArgs {
  std::string table_name;
  std::string backup_name;
};

struct ListBackupsArgs {
  std::optional<std::string> table_name;  // a table's backups, even once it is deleted
  int64_t limit = 0;                      // 1..100; 0: all
  std::optional<int64_t> lower_ms;        // created at or after
  std::optional<int64_t> upper_ms;        // created before
  std::optional<std::string> exclusive_start_backup_arn;
  enum class Type { kUser, kSystem, kAwsBackup, kAll };
  Type type = Type::kUser;  // DynamoDB's default: USER backups only
};

struct ListBackupsResult {
  std::vector<BackupDescription> backups;  // oldest first
  std::optional<std::string> last_evaluated_backup_arn;
};

// What a restore may change of the table it recreates. Index lists given replace the backup's
// (each must match one of its indexes by key schema and projection; an empty list drops them);
// absent, the backup's indexes are restored.
struct RestoreOverrides {
  std::optional<BillingMode> billing_mode;
  std::optional<std::vector<IndexDefinition>> global_secondary_indexes;
  std::optional<std::vector<IndexDefinition>> local_secondary_indexes;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<SseSpecification> sse_specification;
  // VectorIndexOverride: the source's vector indexes to keep (each must match one by name and
  // definition); absent: all of them.
  std::optional<std::vector<VectorIndexDefinition>> vector_indexes;
};

struct RestoreTableFromBackupArgs {
  std::string target_table_name;
  std::string backup_arn;
  RestoreOverrides overrides;
};

struct RestoreTableToPointInTimeArgs {
  std::string source_table_name;
  std::string target_table_name;
  bool use_latest_restorable_time = false;
  std::optional<int64_t> restore_date_time_ms;  // exactly one of the two is given
  RestoreOverrides overrides;
};

}  // namespace ddbd
