// The Engine's Time to Live calls, which delegate to engine/ttl/ (and, for a global table, pass
// the change on to its other members: engine/replicas/).
#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/replicas/replica_updates.h"
#include "engine/replicas/strong_consistency.h"

namespace ddbd {

Result<TimeToLiveOutcome> Engine::UpdateTimeToLive(const UpdateTimeToLiveArgs& args) {
  if (args.specification.enabled) {
    if (std::optional<TableDescription> table = state_->catalog.Describe(args.table_name)) {
      if (Status allowed = RefuseTimeToLiveOnStrong(*table); !allowed.ok()) return allowed.error();
    }
  }
  auto updated = state_->time_to_live.Update(args);
  if (updated.ok()) SyncTimeToLive(state_->catalog, args);  // a global table's other members
  return updated;
}

Result<TimeToLiveDescription> Engine::DescribeTimeToLive(std::string_view table_name) const {
  return state_->time_to_live.Describe(table_name);
}

size_t Engine::SweepExpiredItems(size_t max_items) {
  if (log_failing()) return 0;  // deletes wait, as users' writes do, until the log can be written
  return state_->time_to_live.SweepExpired(max_items);
}

}  // namespace ddbd
