// The Engine's table calls, which only delegate to engine/tables/ (and keep a deleted table's
// SYSTEM backup under point-in-time recovery, engine/backups/), and to engine/replicas/ for
// global tables.
#include <utility>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/replicas/global_tables_2017.h"
#include "engine/replicas/multi_account.h"
#include "engine/replicas/replica_auto_scaling.h"
#include "engine/replicas/replica_updates.h"
#include "engine/tables/table_operations.h"

namespace ddbd {

Result<TableOutcome> Engine::CreateTable(const CreateTableArgs& args) {
  if (args.global_table_source_arn) {
    const CreateTableCall create_table = [this](const CreateTableArgs& made) {
      return ddbd::CreateTable(state_->catalog, made);
    };
    const DropTableCall drop_table = [this](const std::string& table_name) {
      (void)ddbd::DeleteTable(state_->catalog, table_name);
    };
    return JoinGlobalTable(state_->catalog, create_table, drop_table, args);
  }
  return ddbd::CreateTable(state_->catalog, args);
}

Result<TableDescription> Engine::DescribeTable(std::string_view table_name) const {
  return ddbd::DescribeTable(state_->catalog, table_name);
}

ListTablesResult Engine::ListTables(const ListTablesArgs& args) const {
  return ddbd::ListTables(state_->catalog, args);
}

Result<TableOutcome> Engine::UpdateTable(const UpdateTableArgs& args) {
  if (!args.replica_updates.empty() || args.multi_region_consistency ||
      !args.witness_updates.empty()) {
    return UpdateReplicas(state_->catalog, args);
  }
  auto updated = ddbd::UpdateTable(state_->catalog, args);
  if (updated.ok()) SyncTableUpdate(state_->catalog, args);  // a global table's other members
  return updated;
}

Result<TableOutcome> Engine::DeleteTable(std::string_view table_name) {
  auto deleted = ddbd::DeleteTable(state_->catalog, table_name);
  if (!deleted.ok()) return deleted.error();
  TableOutcome& outcome = deleted.value().outcome;
  AnnounceDeparture(state_->catalog, outcome);  // a global table's other members carry on
  if (outcome.point_in_time_recovery_since_ms != 0) {
    state_->backups.KeepDeletedTable(outcome, *deleted.value().items, deleted.value().deleted_ms);
  }
  return std::move(outcome);
}

Result<bool> Engine::ApplyReplicatedWrite(const ReplicatedWrite& write) {
  return ddbd::ApplyReplicatedWrite(state_->catalog, write);
}

Result<TableAutoScalingDescription> Engine::UpdateTableReplicaAutoScaling(
    const UpdateTableReplicaAutoScalingArgs& args) {
  return UpdateReplicaAutoScaling(state_->catalog, args);
}

Result<TableAutoScalingDescription> Engine::DescribeTableReplicaAutoScaling(
    const std::string& table_name) const {
  return DescribeReplicaAutoScaling(state_->catalog, table_name);
}

Status Engine::SetReplicaAutoScaling(const std::string& table_name, TableAutoScaling settings) {
  return ddbd::SetReplicaAutoScaling(state_->catalog, table_name, std::move(settings));
}

Result<GlobalTableDescription> Engine::CreateGlobalTable(const CreateGlobalTableArgs& args) {
  return ddbd::CreateGlobalTable(state_->catalog, args);
}

Result<GlobalTableDescription> Engine::UpdateGlobalTable(const UpdateGlobalTableArgs& args) {
  return ddbd::UpdateGlobalTable(state_->catalog, args);
}

Result<GlobalTableDescription> Engine::DescribeGlobalTable(
    const std::string& global_table_name) const {
  return ddbd::DescribeGlobalTable(state_->catalog, global_table_name);
}

ListGlobalTablesResult Engine::ListGlobalTables(const ListGlobalTablesArgs& args) const {
  return ddbd::ListGlobalTables(state_->catalog, args);
}

Result<GlobalTableSettingsDescription> Engine::DescribeGlobalTableSettings(
    const std::string& global_table_name) const {
  return ddbd::DescribeGlobalTableSettings(state_->catalog, global_table_name);
}

Result<GlobalTableSettingsDescription> Engine::UpdateGlobalTableSettings(
    const UpdateGlobalTableSettingsArgs& args) {
  // This region's table changes as UpdateTable changes it (a table of version 2017.11.29 passes
  // nothing on by itself).
  const UpdateTableCall update_table = [this](const UpdateTableArgs& update) {
    return ddbd::UpdateTable(state_->catalog, update);
  };
  return ddbd::UpdateGlobalTableSettings(state_->catalog, update_table, args);
}

Status Engine::SetLegacyGlobalTable(const std::string& table_name,
                                    const std::vector<std::string>& group, int64_t created_ms) {
  return ddbd::SetLegacyGlobalTable(state_->catalog, table_name, group, created_ms);
}

Status Engine::SetReplicas(const std::string& table_name,
                           std::vector<ReplicaDescription> replicas) {
  return ddbd::SetReplicas(state_->catalog, table_name, std::move(replicas));
}

Status Engine::AdmitReplica(const std::string& table_name,
                            const std::vector<ReplicaDescription>& replicas) {
  return ddbd::AdmitReplica(state_->catalog, table_name, replicas);
}

Status Engine::SetReplicaStatus(const std::string& table_name, const std::string& region,
                                ReplicaStatus status) {
  return ddbd::SetReplicaStatus(state_->catalog, table_name, region, status);
}

std::vector<std::string> Engine::ReplicatedTables() const {
  return ddbd::ReplicatedTables(state_->catalog);
}

ReplicaVersionList Engine::ReplicaVersions(const std::string& table_name) const {
  return ReplicaVersionsOf(state_->catalog, table_name);
}

void Engine::ResendReplicaItems(const std::string& table_name, const std::string& member,
                                const std::vector<std::string>& keys) {
  ddbd::ResendReplicaItems(state_->catalog, table_name, member, keys);
}

void Engine::ResumeReplicaCopies() { ddbd::ResumeReplicaCopies(state_->catalog); }

}  // namespace ddbd
