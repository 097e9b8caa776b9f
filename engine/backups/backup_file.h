// A backup's file under <db-path>/backups: one log segment (engine/persistence/log_format.h, so
// it is checksummed record by record) holding a kBackup record (the backup's details), a
// kTableCreated record (the table as backed up, catalog_codec.h) and a kItemPut record for each
// item. A file that does not read whole is refused at start, never half-loaded.
#pragma once

#include <string>
#include <string_view>

#include "engine/backups/on_demand_backups.h"
#include "engine/error.h"

namespace ddbd {

// The file's name for the backup with `backup_arn`: its id (what follows "/backup/").
std::string BackupFileName(std::string_view backup_arn);

std::string EncodeBackupFile(const Backup& backup);
// InternalServerError naming `file_name` for a file that is not a whole backup.
Result<Backup> DecodeBackupFile(std::string_view file_name, std::string_view bytes);

}  // namespace ddbd
