// The Engine's store (engine/store/): opening one, and the calls that only delegate to it.
#include <utility>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/persistence/file_system.h"

namespace ddbd {

Result<std::unique_ptr<Engine>> Engine::Open(EngineOptions options, const Clock& clock) {
  if (options.db_path.empty()) return std::make_unique<Engine>(std::move(options), clock);
  // The sweeper starts once the log is replayed and the journal attached, so every TTL delete
  // is logged.
  const int64_t ttl_interval_ms = options.ttl_interval_ms;
  options.ttl_interval_ms = 0;
  auto engine = std::make_unique<Engine>(std::move(options), clock);
  EngineState& state = *engine->state_;
  if (Status opened = state.store.Open(); !opened.ok()) return opened.error();
  // The backups kept beside the log, in files of their own.
  if (Status loaded = state.backups.Load(*state.store.files()); !loaded.ok()) {
    return loaded.error();
  }
  // The exports' records, beside them.
  if (Status loaded = state.exports.Load(*state.store.files()); !loaded.ok()) {
    return loaded.error();
  }
  if (Status loaded = state.imports.Load(*state.store.files()); !loaded.ok()) {
    return loaded.error();
  }
  engine->options_.ttl_interval_ms = ttl_interval_ms;
  StartSweeper(*engine->state_, *engine);
  StartKinesisDelivery(*engine->state_);
  StartStreamTriggers(*engine->state_);
  engine->state_->store.StartCheckpointer();
  return engine;
}

Result<Engine::DirectoryLock> Engine::LockDirectory(const std::string& path,
                                                    std::vector<std::string>& entries) {
  PosixFileSystem files;
  if (Status made = files.CreateDirectory(path); !made.ok()) return made.error();
  auto lock = files.Lock(path + "/LOCK");
  if (!lock.ok()) return lock.error();
  auto names = files.List(path);
  if (!names.ok()) return names.error();
  entries = std::move(names.value());
  return DirectoryLock(std::shared_ptr<FileLock>(std::move(lock.value())));
}

Result<bool> Engine::Checkpoint(bool always) { return state_->store.Checkpoint(always); }

bool Engine::persistent() const { return state_->store.journal() != nullptr; }

bool Engine::log_failing() const {
  const Journal* journal = state_->store.journal();
  return journal != nullptr && journal->failing();
}

std::string Engine::StoreHealth() const {
  if (!log_failing()) return {};
  return "write-ahead log: " + state_->store.journal()->failure() +
         "; writes are refused until it can be written again";
}

Ticket Engine::Logged() const {
  Journal* journal = state_->store.journal();
  return Ticket{journal != nullptr ? journal->appended() : 0};
}

void Engine::WhenDurable(Ticket ticket, std::function<void(const Status&)> done) {
  Journal* journal = state_->store.journal();
  if (journal == nullptr || !ticket.pending()) return done(Ok{});
  journal->WhenDurable(ticket.number, std::move(done));
}

}  // namespace ddbd
