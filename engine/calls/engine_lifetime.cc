// The Engine's lifetime: its state made and stopped in order, the TTL sweeper, Kinesis delivery,
// stream triggers, observers.
#include <utility>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"

namespace ddbd {

Engine::Engine(EngineOptions options, const Clock& clock)
    : options_(std::move(options)),
      clock_(clock),
      state_(std::make_unique<EngineState>(options_, clock_)) {
  StartSweeper(*state_, *this);
  if (options_.db_path.empty()) {
    StartKinesisDelivery(*state_);
    StartStreamTriggers(*state_);
  }
}

void StartStreamTriggers(EngineState& state) {
  const EngineOptions& options = state.catalog.options;
  if (options.stream_triggers.empty() || state.trigger_task) return;
  auto positions = std::make_unique<TriggerPositions>(
      options.db_path.empty() ? nullptr : state.store.files(), options.db_path);
  positions->Load();
  state.stream_triggers = std::make_unique<StreamTriggers>(
      state.catalog, options.stream_triggers, std::move(positions), state.catalog.clock);
  // Every 20 ms, as Kinesis delivery: a change reaches its function well under a second after it
  // commits, as Lambda's polling of a stream does.
  state.trigger_task = std::make_unique<PeriodicTask>(
      std::chrono::milliseconds(20),
      [triggers = state.stream_triggers.get()] { return triggers->DeliverOnce(); },
      PeriodicTask::Priority::kNiced);
}

void StartKinesisDelivery(EngineState& state) {
  if (!state.catalog.options.kinesis || state.kinesis_task) return;
  state.kinesis_delivery = std::make_unique<KinesisDelivery>(
      state.catalog, *state.catalog.options.kinesis, state.catalog.clock);
  // Every 20 ms: a change reaches its stream about as soon as DynamoDB's do (under a second).
  state.kinesis_task = std::make_unique<PeriodicTask>(
      std::chrono::milliseconds(20),
      [delivery = state.kinesis_delivery.get()] { return delivery->DeliverOnce(); },
      PeriodicTask::Priority::kNiced);
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
  state_->exports.Stop();
  state_->imports
      .Stop();  // an import running stays IN_PROGRESS: failed, its table dropped, at the next start
                // // an export running stays IN_PROGRESS on disk: failed at the next start
  state_->store.StopCheckpointer();
  state_->sweeper.reset();
  state_->kinesis_task.reset();
  if (state_->stream_triggers) state_->stream_triggers->Stop();
  state_->trigger_task.reset();
  state_->transactions.StopHolding();  // commits what is held while the tables are all there
}

void Engine::Subscribe(CommitObserver* observer) { state_->catalog.log.Subscribe(observer); }

}  // namespace ddbd
