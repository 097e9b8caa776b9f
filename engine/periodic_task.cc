#include "engine/periodic_task.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <utility>

namespace ddbd {

PeriodicTask::PeriodicTask(std::chrono::milliseconds interval, std::function<bool()> work,
                           Priority priority)
    : interval_(interval),
      work_(std::move(work)),
      priority_(priority),
      thread_([this] { Run(); }) {}

PeriodicTask::~PeriodicTask() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PeriodicTask::Run() {
  // Background work runs only where requests leave the core idle (Linux's SCHED_IDLE): a sweep
  // of a million items then barely shows in request latency. Where refused, it runs as usual.
  if (priority_ == Priority::kIdle) {
    sched_param idle{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
  } else {
    // Linux nices threads one by one (a thread id names one thread here).
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  }
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (wake_.wait_for(lock, interval_, [this] { return stopping_; })) return;
    bool more = true;
    while (more && !stopping_) {
      lock.unlock();
      more = work_();
      std::this_thread::yield();  // a backlog's slices leave room for requests
      lock.lock();
    }
  }
}

}  // namespace ddbd
