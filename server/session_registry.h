// The server's live sessions, so shutdown can close the idle ones and --max-connections can
// count them; kept apart from http_server.cc because none of it needs Beast or Asio.
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "server/deadline.h"
#include "server/metrics.h"

namespace ddbd {

// What the registry and shutdown see of a session, plain or TLS.
class SessionBase {
 public:
  virtual ~SessionBase() = default;
  // Called on shutdown: a session waiting for a request closes now; one with a request under
  // way answers it first.
  virtual void StopWhenIdle() = 0;
  // The answer it is writing: bytes not yet taken by the client, and since when (steady clock,
  // ns); 0 bytes when none.
  virtual size_t PendingBytes() const = 0;
  virtual int64_t PendingSinceNs() const = 0;
  // Takes its answer's bytes out of the budget (0 if it has none, or they were taken already):
  // the registry's, when it decides to drop the session.
  virtual size_t TakePendingBytes() = 0;
  // Closes the connection from its own thread: its client stopped reading and the server's
  // budget for such answers is spent. `bytes`: the answer it had not taken, for the log.
  virtual void Drop(size_t bytes) = 0;
  // Closes the connection from its own thread if its deadline has passed by then (it may have
  // finished its I/O since the sweep saw it).
  virtual void TimeOut() = 0;

  // Set by the session on its own thread, read by the sweep (SessionRegistry::Expired).
  Deadline deadline;
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
  // The most bytes of answers being written that clients have not yet taken, all connections
  // together (0: no limit). Past it the connections whose answers have waited longest (the
  // slowest readers) are dropped until the rest fit.
  size_t answer_budget_bytes = 0;

  // A session starts writing an answer of `bytes`; over the budget, the slowest go.
  void AnswerPending(size_t bytes) {
    const size_t total = pending_bytes_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    if (answer_budget_bytes != 0 && total > answer_budget_bytes) DropSlowest();
  }
  // Its answer was written, or its connection failed.
  void AnswerDone(size_t bytes) { pending_bytes_.fetch_sub(bytes, std::memory_order_relaxed); }
  size_t pending_bytes() const { return pending_bytes_.load(std::memory_order_relaxed); }
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
  // The sessions whose deadline had passed at `now_ns`. Each removes itself in its destructor
  // under the lock, so its deadline is still there while the lock is held.
  std::vector<std::shared_ptr<SessionBase>> Expired(int64_t now_ns) {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<SessionBase>> expired;
    for (auto& [raw, handle] : sessions_) {
      if (!raw->deadline.Passed(now_ns)) continue;
      if (auto session = handle.lock()) expired.push_back(std::move(session));
    }
    return expired;
  }

 private:
  void DropSlowest() {
    // One at a time: each sees what the one before it dropped, so none drops more than needed.
    std::lock_guard one_at_a_time(drop_mutex_);
    if (pending_bytes() <= answer_budget_bytes) return;
    std::vector<std::shared_ptr<SessionBase>> waiting;
    for (auto& session : Live()) {
      if (session->PendingBytes() > 0) waiting.push_back(std::move(session));
    }
    std::sort(waiting.begin(), waiting.end(), [](const auto& a, const auto& b) {
      return a->PendingSinceNs() < b->PendingSinceNs();
    });
    for (const auto& session : waiting) {
      if (pending_bytes() <= answer_budget_bytes) break;
      // Its bytes leave the budget now (its write ends later, on its own thread).
      const size_t bytes = session->TakePendingBytes();
      if (bytes == 0) continue;  // its answer went meanwhile
      AnswerDone(bytes);
      if (metrics != nullptr) metrics->ConnectionDropped();
      session->Drop(bytes);
    }
  }

  std::mutex mutex_;
  std::unordered_map<SessionBase*, std::weak_ptr<SessionBase>> sessions_;
  std::atomic<size_t> pending_bytes_ = 0;
  std::mutex drop_mutex_;
};

}  // namespace ddbd
