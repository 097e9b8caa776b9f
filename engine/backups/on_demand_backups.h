// On-demand backups: the backup ARN's key. A backup is a real copy: the table's description and
// every item as they were at one moment (a walk under the table's read lock). With a store it is
// also a file of its own under <db-path>/backups, written and synced before CreateBackup answers,
// so it survives restarts and outlives its table, as in DynamoDB.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/backups.h"
#include "engine/backups/restore.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/persistence/file_system.h"
#include "engine/storage/item_records.h"

namespace ddbd {

// The part of a backup ARN that names it wherever its region: account, table and backup id
// (DynamoDB finds a backup by an ARN with another region in it). ValidationException "Invalid
// Backup ARN" for anything else.
Result<std::string> BackupKey(const std::string& backup_arn);

// A backup as kept: the table's description and every item, stored.
struct Backup {
  BackupDescription description;
  std::vector<StoredItem> items;
};

// Every backup by BackupKey, as engine/engine.h states the backup calls.
//
// Thread safety: every member may be called from any thread, except Load.
class Backups {
 public:
  Backups(Catalog& catalog, CreateTableCall create_table)
      : catalog_(catalog), create_table_(std::move(create_table)) {}

  // With a store: keeps backups in files under <db-path>/backups from now on, and reads those
  // kept there (a CreateBackup a crash cut short leaves none; expired SYSTEM backups go).
  Status Load(FileSystem& files);
  Result<BackupDetails> Create(const CreateBackupArgs& args);
  // The SYSTEM backup DynamoDB keeps of a deleted table with point-in-time recovery, 35 days.
  void KeepDeletedTable(TableDescription source, const TableItems& items, int64_t now_ms);
  Result<BackupDescription> Describe(const std::string& backup_arn) const;
  Result<BackupDescription> Delete(const std::string& backup_arn);
  Result<ListBackupsResult> List(const ListBackupsArgs& args) const;
  Result<TableOutcome> Restore(const RestoreTableFromBackupArgs& args);

 private:
  // Keeps `backup`: with a store, its file first.
  Status Keep(std::shared_ptr<Backup> backup);

  Catalog& catalog_;
  CreateTableCall create_table_;  // a restore's table, made as CreateTable makes one
  FileSystem* files_ = nullptr;   // with a store
  // Shared: a restore reads one while others come and go.
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<const Backup>, std::less<>> backups_;
};

}  // namespace ddbd
