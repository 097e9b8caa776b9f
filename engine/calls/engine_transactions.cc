// The Engine's transactions, which only delegate to engine/transactions/.
#include "engine/calls/engine_state.h"
#include "engine/engine.h"

namespace ddbd {

Result<TransactWriteItemsOutcome> Engine::TransactWriteItems(const TransactWriteItemsArgs& args) {
  return state_->transactions.Write(args);
}

void Engine::TransactWriteItemsAsync(TransactWriteItemsArgs args, TransactWriteDone done) {
  state_->transactions.WriteAsync(std::move(args), std::move(done));
}

Result<TransactGetItemsOutcome> Engine::TransactGetItems(const TransactGetItemsArgs& args) const {
  return state_->transactions.Get(args);
}

}  // namespace ddbd
