// The Engine's backup calls, which only delegate to engine/backups/.
#include "engine/backups/point_in_time.h"
#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/tables/table_operations.h"

namespace ddbd {

Result<BackupDetails> Engine::CreateBackup(const CreateBackupArgs& args) {
  return state_->backups.Create(args);
}

Result<BackupDescription> Engine::DescribeBackup(const std::string& backup_arn) const {
  return state_->backups.Describe(backup_arn);
}

Result<BackupDescription> Engine::DeleteBackup(const std::string& backup_arn) {
  return state_->backups.Delete(backup_arn);
}

Result<ListBackupsResult> Engine::ListBackups(const ListBackupsArgs& args) const {
  return state_->backups.List(args);
}

Result<TableOutcome> Engine::RestoreTableFromBackup(const RestoreTableFromBackupArgs& args) {
  return state_->backups.Restore(args);
}

Result<ContinuousBackupsDescription> Engine::DescribeContinuousBackups(
    const std::string& table_name) const {
  return ddbd::DescribeContinuousBackups(state_->catalog, table_name);
}

Result<ContinuousBackupsOutcome> Engine::UpdateContinuousBackups(
    const UpdateContinuousBackupsArgs& args) {
  return ddbd::UpdateContinuousBackups(state_->catalog, args);
}

Result<TableOutcome> Engine::RestoreTableToPointInTime(const RestoreTableToPointInTimeArgs& args) {
  Catalog& catalog = state_->catalog;
  return ddbd::RestoreTableToPointInTime(
      catalog,
      [&catalog](const CreateTableArgs& create) { return ddbd::CreateTable(catalog, create); },
      args);
}

}  // namespace ddbd
