// On-demand backups: the backup ARN's key. A backup is a real copy: the table's description and
// every item as they were at one moment (a walk under the table's read lock). With a store it is
// also a file of its own under <db-path>/backups, written and synced before CreateBackup answers,
// so it survives restarts and outlives its table, as in DynamoDB.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/backups.h"
#include "engine/error.h"

namespace ddbd {

// The part of a backup ARN that names it wherever its region: account, table and backup id
// (DynamoDB finds a backup by an ARN with another region in it). ValidationException "Invalid
// Backup ARN" for anything else.
Result<std::string> BackupKey(const std::string& backup_arn);

}  // namespace ddbd
