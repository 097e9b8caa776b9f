#include "engine/transactions/delayed_tasks.h"

#include <utility>

namespace ddbd {

DelayedTasks::DelayedTasks() : thread_([this] { Run(); }) {}

DelayedTasks::~DelayedTasks() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void DelayedTasks::Schedule(std::chrono::milliseconds delay, std::function<void()> task) {
  {
    std::lock_guard lock(mutex_);
    tasks_.emplace(std::chrono::steady_clock::now() + delay, std::move(task));
  }
  wake_.notify_all();
}

void DelayedTasks::Run() {
  std::unique_lock lock(mutex_);
  while (true) {
    if (tasks_.empty()) {
      if (stopping_) return;
      wake_.wait(lock);
      continue;
    }
    auto first = tasks_.begin();
    // On shutdown, what waits runs at once: every request gets its answer.
    if (!stopping_ && std::chrono::steady_clock::now() < first->first) {
      wake_.wait_until(lock, first->first);
      continue;
    }
    std::function<void()> task = std::move(first->second);
    tasks_.erase(first);
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace ddbd
