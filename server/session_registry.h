// The server's live sessions, so shutdown can close the idle ones and --max-connections can
// count them; kept apart from http_server.cc because none of it needs Beast or Asio.
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "server/metrics.h"

namespace ddbd {

// What the registry and shutdown see of a session, plain or TLS.
class SessionBase {
 public:
  virtual ~SessionBase() = default;
  // Called on shutdown: a session waiting for a request closes now; one with a request under
  // way answers it first.
  virtual void StopWhenIdle() = 0;
};

// Live sessions, so shutdown can close the idle ones. Sessions add themselves on start and
// remove themselves on destruction.
class SessionRegistry {
 public:
  void Add(SessionBase* session, std::weak_ptr<SessionBase> handle) {
    {
      std::lock_guard lock(mutex_);
      sessions_.emplace(session, std::move(handle));
    }
    if (metrics != nullptr) metrics->ConnectionOpened();
  }
  // Returns true if this was the last session. `on_removed` runs after, outside the lock.
  bool Remove(SessionBase* session) {
    bool last = false;
    {
      std::lock_guard lock(mutex_);
      sessions_.erase(session);
      last = sessions_.empty();
    }
    if (metrics != nullptr) metrics->ConnectionClosed();
    if (on_removed) on_removed();
    return last;
  }
  size_t Size() {
    std::lock_guard lock(mutex_);
    return sessions_.size();
  }
  std::function<void()> on_removed;  // set before the first session
  Metrics* metrics = nullptr;        // counts connections (null: not counted)
  std::vector<std::shared_ptr<SessionBase>> Live() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<SessionBase>> live;
    for (auto& [raw, handle] : sessions_) {
      if (auto session = handle.lock()) live.push_back(std::move(session));
    }
    return live;
  }
  bool Empty() {
    std::lock_guard lock(mutex_);
    return sessions_.empty();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<SessionBase*, std::weak_ptr<SessionBase>> sessions_;
};

}  // namespace ddbd
