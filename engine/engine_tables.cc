// The Engine's table calls, which only delegate to engine/tables/ (and keep a deleted table's
// SYSTEM backup under point-in-time recovery, engine/backups/).
#include <utility>

#include "engine/engine.h"
#include "engine/engine_state.h"
#include "engine/tables/table_operations.h"

namespace ddbd {

Result<TableOutcome> Engine::CreateTable(const CreateTableArgs& args) {
  return ddbd::CreateTable(state_->catalog, args);
}

Result<TableDescription> Engine::DescribeTable(std::string_view table_name) const {
  return ddbd::DescribeTable(state_->catalog, table_name);
}

ListTablesResult Engine::ListTables(const ListTablesArgs& args) const {
  return ddbd::ListTables(state_->catalog, args);
}

Result<TableOutcome> Engine::UpdateTable(const UpdateTableArgs& args) {
  return ddbd::UpdateTable(state_->catalog, args);
}

Result<TableOutcome> Engine::DeleteTable(std::string_view table_name) {
  auto deleted = ddbd::DeleteTable(state_->catalog, table_name);
  if (!deleted.ok()) return deleted.error();
  TableOutcome& outcome = deleted.value().outcome;
  if (outcome.point_in_time_recovery_since_ms != 0) {
    state_->backups.KeepDeletedTable(outcome, *deleted.value().items, deleted.value().deleted_ms);
  }
  return std::move(outcome);
}

}  // namespace ddbd
