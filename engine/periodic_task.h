// Background work that runs every so often on a thread of its own (the TTL sweeper, the
// checkpointer), started and stopped with the engine; the sweeper at the lowest CPU priority
// (SCHED_IDLE): requests come first, as DynamoDB's own TTL deletes give way to the table's
// traffic. A checkpoint cannot wait for an idle moment (the log grows until it is written), so
// it runs niced instead: a small share of a busy core, all of an idle one. Waits
// are real time; what the work decides (is an item due?) comes from the engine's injected clock, so
// tests call the work directly instead.
//
// Thread safety: construct and destroy from one thread; `work` runs on the task's thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace ddbd {

class PeriodicTask {
 public:
  // Runs `work` every `interval`; when it returns true (more is waiting) it runs again at once,
  // so a backlog is worked off in `work`-sized slices with the locks released in between.
  enum class Priority { kIdle, kNiced };
  PeriodicTask(std::chrono::milliseconds interval, std::function<bool()> work,
               Priority priority = Priority::kIdle);
  // Returns once `work` is no longer running and never will again.
  ~PeriodicTask();
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

 private:
  void Run();
  const std::chrono::milliseconds interval_;
  const std::function<bool()> work_;
  const Priority priority_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ddbd
