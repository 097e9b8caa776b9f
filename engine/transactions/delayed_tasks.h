// Work to run after a real delay, on a thread of its own: a held transaction's commit
// (--transaction-hold-ms). The request's answer is sent from there through the deferred-answer
// path, so no I/O thread sleeps.
//
// Thread safety: Schedule may be called from any thread. The destructor runs what is still
// waiting at once, then stops the thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace ddbd {

class DelayedTasks {
 public:
  DelayedTasks();
  ~DelayedTasks();
  DelayedTasks(const DelayedTasks&) = delete;
  DelayedTasks& operator=(const DelayedTasks&) = delete;

  void Schedule(std::chrono::milliseconds delay, std::function<void()> task);

 private:
  void Run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::multimap<std::chrono::steady_clock::time_point, std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ddbd
