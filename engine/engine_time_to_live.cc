// The Engine's Time to Live calls, which only delegate to engine/ttl/.
#include "engine/engine.h"
#include "engine/engine_state.h"

namespace ddbd {

Result<TimeToLiveOutcome> Engine::UpdateTimeToLive(const UpdateTimeToLiveArgs& args) {
  return state_->time_to_live.Update(args);
}

Result<TimeToLiveDescription> Engine::DescribeTimeToLive(std::string_view table_name) const {
  return state_->time_to_live.Describe(table_name);
}

size_t Engine::SweepExpiredItems(size_t max_items) {
  if (log_failing()) return 0;  // deletes wait, as users' writes do, until the log can be written
  return state_->time_to_live.SweepExpired(max_items);
}

}  // namespace ddbd
