// An engine with a store on an in-memory file system (engine/persistence/file_system.h), opened
// again as often as a test restarts it; the clock is the test's to move.
#pragma once

#include <catch2/catch.hpp>
#include <memory>

#include "engine/engine.h"
#include "engine/persistence/file_system.h"

namespace ddbd::testing {

struct MemoryStore {
  MemoryFileSystem files;
  ManualClock clock;
  EngineOptions Options() {
    EngineOptions options;
    options.db_path = "db";
    options.file_system = &files;
    options.ttl_cooldown_ms = 0;
    return options;
  }
  std::unique_ptr<Engine> Open() {
    auto engine = Engine::Open(Options(), clock);
    REQUIRE(engine.ok());
    return std::move(engine.value());
  }
};

}  // namespace ddbd::testing
