#include "engine/engine.h"

#include <utility>

#include "engine/engine_state.h"
#include "engine/tables/table_operations.h"

namespace ddbd {

Engine::Engine(EngineOptions options, const Clock& clock)
    : options_(std::move(options)),
      clock_(clock),
      state_(std::make_unique<EngineState>(options_, clock_)) {
  StartSweeper(*state_, *this);
}

void StartSweeper(EngineState& state, Engine& engine) {
  const int64_t interval_ms = state.catalog.options.ttl_interval_ms;
  if (interval_ms <= 0 || state.sweeper) return;
  // Slices of a few hundred deletes; a backlog is worked off slice after slice.
  constexpr size_t kSlice = 512;
  state.sweeper = std::make_unique<PeriodicTask>(std::chrono::milliseconds(interval_ms), [&engine] {
    return engine.SweepExpiredItems(kSlice) == kSlice;
  });
}

Engine::~Engine() {
  state_->store.StopCheckpointer();
  state_->sweeper.reset();
  state_->transactions.StopHolding();  // commits what is held while the tables are all there
}

void Engine::Subscribe(CommitObserver* observer) { state_->catalog.log.Subscribe(observer); }

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
    state_->backups.KeepDeletedTable(outcome, *deleted.value().items, clock_.NowMs());
  }
  return std::move(outcome);
}

}  // namespace ddbd
