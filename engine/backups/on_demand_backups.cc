// On-demand backups: a copy of a table's description and items taken under its read lock, kept
// by ARN (and, with a store, in a file of its own), and restores that create a table from one
// through CreateTable's path and fill it through the commit path.
#include "engine/backups/on_demand_backups.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <shared_mutex>

#include "engine/backups/backup_file.h"
#include "engine/backups/restore.h"

namespace ddbd {
namespace {

Error BackupNotFound(const std::string& backup_arn) {
  return {ErrorCode::kBackupNotFound, "Backup not found: " + backup_arn};
}

// "<13-digit creation ms>-<8 hex digits>", as DynamoDB names backups.
std::string NewBackupId(int64_t now_ms) {
  static thread_local std::mt19937 random{std::random_device{}()};
  char id[32];
  std::snprintf(id, sizeof(id), "%013" PRId64 "-%08x", now_ms,
                static_cast<unsigned>(random() & 0xFFFFFFFFu));
  return id;
}

std::string BackupsDirectory(const EngineOptions& options) { return options.db_path + "/backups"; }

bool Expired(const BackupDetails& details, int64_t now_ms) {
  return details.system && now_ms >= details.backup_expiry_ms;
}

// The backup `key` names, unless there is none or it has expired.
const Backup* FindLiveLocked(
    const std::map<std::string, std::shared_ptr<const Backup>, std::less<>>& backups,
    const std::string& key, int64_t now_ms) {
  auto it = backups.find(key);
  if (it == backups.end() || Expired(it->second->description.details, now_ms)) return nullptr;
  return it->second.get();
}

// Where DynamoDB lists a backup: by creation time, then ARN. A cursor's ARN need not name a
// backup that still exists: its id carries the creation time.
std::pair<int64_t, std::string> ListPosition(const std::string& backup_arn) {
  const size_t at = backup_arn.rfind("/backup/");
  int64_t ms = 0;
  if (at != std::string::npos) {
    for (size_t i = at + 8; i < backup_arn.size() && backup_arn[i] >= '0' && backup_arn[i] <= '9' &&
                            ms < std::numeric_limits<int64_t>::max() / 10;
         ++i) {
      ms = ms * 10 + (backup_arn[i] - '0');
    }
  }
  return {ms, backup_arn};
}

}  // namespace

Result<std::string> BackupKey(const std::string& backup_arn) {
  // arn:aws:dynamodb:<region>:<account>:table/<name>/backup/<id>. DynamoDB finds a backup whatever
  // region the ARN names, so the key is what follows the region: account, table and id.
  constexpr std::string_view kService = ":dynamodb:";
  const size_t service =
      backup_arn.starts_with("arn:") ? backup_arn.find(kService) : std::string::npos;
  const size_t account =
      service == std::string::npos ? service : backup_arn.find(':', service + kService.size());
  if (account == std::string::npos || backup_arn.find(":table/", account) == std::string::npos ||
      backup_arn.find("/backup/", account) == std::string::npos) {
    return Error::Validation("Invalid Backup ARN");
  }
  return backup_arn.substr(account + 1);
}

Status Backups::Keep(std::shared_ptr<Backup> backup) {
  const BackupDetails& details = backup->description.details;
  auto key = BackupKey(details.backup_arn);
  if (!key.ok()) return key.error();
  if (files_ != nullptr) {
    // Written aside, synced and renamed into place: a crash leaves the backup whole or absent.
    FileSystem& files = *files_;
    const std::string directory = BackupsDirectory(catalog_.options);
    const std::string path = directory + "/" + BackupFileName(details.backup_arn);
    if (Status made = files.CreateDirectory(directory); !made.ok()) return made;
    auto file = files.OpenAppendable(path + ".tmp");
    if (!file.ok()) return file.error();
    Status written = file.value()->Append(EncodeBackupFile(*backup));
    if (written.ok()) written = file.value()->Sync();
    file.value().reset();
    if (written.ok()) written = files.Rename(path + ".tmp", path);
    if (written.ok()) written = files.SyncDirectory(directory);
    if (!written.ok()) {
      (void)files.Remove(path + ".tmp");
      return written;
    }
  }
  std::unique_lock lock(mutex_);
  backups_[key.value()] = std::move(backup);
  return Ok{};
}

namespace {

// A backup of `source` holding every item of `items`, as of one walk under the table's read lock.
std::shared_ptr<Backup> CopyTable(TableDescription source, const TableItems& items,
                                  std::string name, std::string id, int64_t now_ms) {
  auto backup = std::make_shared<Backup>();
  items.Walk(KeyRange{"", true, "", false, false, ""}, true,
             [&](std::string_view, std::string_view blob, uint32_t size) {
               backup->items.push_back({std::string(blob), size});
               return true;
             });
  BackupDetails& details = backup->description.details;
  details.backup_arn = source.table_arn + "/backup/" + id;
  details.backup_name = std::move(name);
  details.backup_creation_ms = now_ms;
  details.backup_status = BackupStatus::kAvailable;
  for (const StoredItem& item : backup->items) details.backup_size_bytes += item.size_bytes;
  // The table's counts are those of the copy (writes may have come since the description).
  source.item_count = static_cast<int64_t>(backup->items.size());
  source.table_size_bytes = details.backup_size_bytes;
  backup->description.source = std::move(source);
  return backup;
}

}  // namespace

Result<BackupDetails> Backups::Create(const CreateBackupArgs& args) {
  const int64_t now_ms = catalog_.clock.NowMs();
  TableDescription source;
  std::shared_ptr<TableItems> items;
  {
    std::shared_lock lock(catalog_.mutex);
    const TableEntry* entry = catalog_.FindLocked(args.table_name, now_ms);
    // A table still being created is not found, as DynamoDB answers.
    if (entry == nullptr ||
        Catalog::Snapshot(*entry, now_ms).table_status == TableStatus::kCreating) {
      return Error::TableNotFound(args.table_name);
    }
    source = Catalog::Snapshot(*entry, now_ms);
    items = entry->items;
  }
  Catalog::FillCounts(*items, source);
  auto backup = CopyTable(std::move(source), *items, args.backup_name, NewBackupId(now_ms), now_ms);
  BackupDetails answer = backup->description.details;
  if (Status kept = Keep(std::move(backup)); !kept.ok()) return kept.error();
  answer.backup_status = BackupStatus::kCreating;  // as DynamoDB's CreateBackup answers
  return answer;
}

void Backups::KeepDeletedTable(TableDescription source, const TableItems& items, int64_t now_ms) {
  char id[32];
  std::snprintf(id, sizeof(id), "%013" PRId64 "-00000000", now_ms);
  std::string name = source.table_name + "$DeletedTableBackup";
  source.table_status = TableStatus::kActive;
  auto backup = CopyTable(std::move(source), items, std::move(name), id, now_ms);
  backup->description.details.system = true;
  backup->description.details.backup_expiry_ms = now_ms + kSystemBackupLifeMs;
  // The table is gone whatever happens here; a backup that cannot be written is not kept.
  (void)Keep(std::move(backup));
}

Result<BackupDescription> Backups::Describe(const std::string& backup_arn) const {
  auto key = BackupKey(backup_arn);
  if (!key.ok()) return key.error();
  std::shared_lock lock(mutex_);
  const Backup* backup = FindLiveLocked(backups_, key.value(), catalog_.clock.NowMs());
  if (backup == nullptr) return BackupNotFound(backup_arn);
  return backup->description;
}

Result<BackupDescription> Backups::Delete(const std::string& backup_arn) {
  auto key = BackupKey(backup_arn);
  if (!key.ok()) return key.error();
  std::unique_lock lock(mutex_);
  const Backup* backup = FindLiveLocked(backups_, key.value(), catalog_.clock.NowMs());
  if (backup == nullptr) return BackupNotFound(backup_arn);
  BackupDescription deleted = backup->description;
  if (deleted.details.system) {
    return Error::Validation(
        "Invalid Request: User is not allowed to delete the system backup with arn " + backup_arn +
        ". It will automatically expire on " + IsoSeconds(deleted.details.backup_expiry_ms));
  }
  if (files_ != nullptr) {
    const std::string directory = BackupsDirectory(catalog_.options);
    if (Status removed = files_->Remove(directory + "/" + BackupFileName(backup_arn));
        !removed.ok()) {
      return removed.error();
    }
    (void)files_->SyncDirectory(directory);
  }
  backups_.erase(key.value());
  deleted.details.backup_status = BackupStatus::kDeleted;
  return deleted;
}

Result<ListBackupsResult> Backups::List(const ListBackupsArgs& args) const {
  if (args.lower_ms && args.upper_ms && *args.lower_ms > *args.upper_ms) {
    return Error::Validation(
        "One or more parameter values were invalid: Time range lower bound must be less than or "
        "equal to upper bound");
  }
  ListBackupsResult result;
  const int64_t now_ms = catalog_.clock.NowMs();
  std::vector<const BackupDescription*> listed;
  std::shared_lock lock(mutex_);
  for (const auto& [key, backup] : backups_) {
    const BackupDescription& description = backup->description;
    const bool system = description.details.system;
    const bool wanted = args.type == ListBackupsArgs::Type::kAll ||
                        (args.type == ListBackupsArgs::Type::kUser && !system) ||
                        (args.type == ListBackupsArgs::Type::kSystem && system);
    if (!wanted || Expired(description.details, now_ms)) continue;
    const int64_t created = description.details.backup_creation_ms;
    if (args.table_name && description.source.table_name != *args.table_name) continue;
    if (args.lower_ms && created < *args.lower_ms) continue;
    if (args.upper_ms && created >= *args.upper_ms) continue;
    listed.push_back(&description);
  }
  auto position = [](const BackupDescription* backup) {
    return std::pair(backup->details.backup_creation_ms, backup->details.backup_arn);
  };
  std::sort(listed.begin(), listed.end(),
            [&](const auto* a, const auto* b) { return position(a) < position(b); });
  auto start = listed.begin();
  if (args.exclusive_start_backup_arn) {
    const auto after = ListPosition(*args.exclusive_start_backup_arn);
    start =
        std::upper_bound(listed.begin(), listed.end(), after,
                         [&](const auto& at, const auto* backup) { return at < position(backup); });
  }
  for (auto it = start; it != listed.end(); ++it) {
    if (args.limit > 0 && static_cast<int64_t>(result.backups.size()) == args.limit) {
      result.last_evaluated_backup_arn = result.backups.back().details.backup_arn;
      break;
    }
    result.backups.push_back(**it);
  }
  return result;
}

Status Backups::Load(FileSystem& files) {
  files_ = &files;
  const std::string directory = BackupsDirectory(catalog_.options);
  if (Status made = files.CreateDirectory(directory); !made.ok()) return made;
  auto names = files.List(directory);
  if (!names.ok()) return names.error();
  for (const std::string& name : names.value()) {
    const std::string path = directory + "/" + name;
    if (name.ends_with(".tmp")) {  // a CreateBackup a crash cut short: it never answered
      (void)files.Remove(path);
      continue;
    }
    if (!name.ends_with(".backup")) continue;
    auto file = files.Map(path);
    if (!file.ok()) return file.error();
    auto backup = DecodeBackupFile(name, file.value()->bytes());
    if (!backup.ok()) return backup.error();
    if (Expired(backup.value().description.details, catalog_.clock.NowMs())) {
      (void)files.Remove(path);  // a SYSTEM backup past its 35 days
      continue;
    }
    auto key = BackupKey(backup.value().description.details.backup_arn);
    if (!key.ok()) return Error::Internal("backup file " + name + ": " + key.error().message());
    backups_[key.value()] = std::make_shared<const Backup>(std::move(backup).value());
  }
  return Ok{};
}

Result<TableOutcome> Backups::Restore(const RestoreTableFromBackupArgs& args) {
  auto key = BackupKey(args.backup_arn);
  if (!key.ok()) return key.error();
  std::shared_ptr<const Backup> backup;
  {
    std::shared_lock lock(mutex_);
    if (FindLiveLocked(backups_, key.value(), catalog_.clock.NowMs()) == nullptr) {
      return BackupNotFound(args.backup_arn);
    }
    backup = backups_.find(key.value())->second;
  }
  const BackupDescription& description = backup->description;
  auto create = RestoredTableArgs(description.source, args.target_table_name, args.overrides);
  if (!create.ok()) return create.error();
  create.value().restore =
      RestoreSummary{description.details.backup_arn, description.source.table_arn,
                     description.details.backup_creation_ms, true};
  return RestoreInto(catalog_, create_table_, create.value(), backup->items);
}

}  // namespace ddbd
