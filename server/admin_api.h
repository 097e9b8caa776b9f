// ddbd's admin API under /_ddbd/ (off unless --admin-api): calls a test makes of the server
// itself rather than of DynamoDB. The router decides who may call it (loopback callers unless
// --admin-api any, no browser origins, a valid signature under --auth-keys); this answers the
// calls:
//   POST /_ddbd/ttl/sweep   deletes every item whose Time to Live has passed, now: {"deleted": N}
//   GET  /_ddbd/clock       the server's clock: {"now": ISO, "epochMillis": N, "offsetMillis": N}
//   POST /_ddbd/clock       moves it forward by {"advanceSeconds": N} (or "advanceMillis"), or to
//                           {"epochSeconds": N}; never back. The SigV4 date check keeps real time.
//   GET  /_ddbd/replication global tables' queues between regions (server/replication.h):
//                           {"queues": [{"source", "target", "pending", "lagMillis", "applied",
//                           "paused"}]}
//   POST /_ddbd/replication/pause   holds the changes from {"source": R} to {"target": R} (either
//   POST /_ddbd/replication/resume  left out: every region) until resumed; answers as GET.
//   GET  /_ddbd/gsi-propagation         whether global secondary indexes' changes are held
//   POST /_ddbd/gsi-propagation/pause   (--gsi-lag-ms): {"paused": B}; pause holds every one,
//   POST /_ddbd/gsi-propagation/resume  resume lets those due through at the next index read.
// Every answer is JSON; a refusal is {"message": ...} with an HTTP 4xx status.
//
// Thread safety: Answer may be called concurrently.
#pragma once

#include <atomic>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "protocol/dispatcher.h"

namespace ddbd {

class Replication;  // server/replication.h

struct AdminAnswer {
  int status = 200;
  std::string body;  // JSON
};

class AdminApi {
 public:
  // The most the clock may be moved in all: a century, far from any overflow of epoch millis.
  static constexpr int64_t kMaxOffsetMs = int64_t{100} * 366 * 86'400'000;

  // Both must outlive the API.
  AdminApi(const RequestHandler& handler, AdjustableClock& clock)
      : handler_(handler), clock_(clock) {}

  // Global tables' replication (null: none; its calls answer 404 saying why). Outlives the API.
  void UseReplication(Replication* replication) { replication_ = replication; }
  // The pause of global secondary indexes' propagation, shared by every engine (null: indexes
  // are updated inside the write, nothing to pause). Outlives the API.
  void UseGsiPropagation(std::atomic<bool>* paused) { gsi_paused_ = paused; }

  // `path` starts with "/_ddbd/".
  AdminAnswer Answer(std::string_view method, std::string_view path, std::string_view body) const;

 private:
  AdminAnswer MoveClock(std::string_view body) const;
  AdminAnswer ClockNow() const;
  AdminAnswer ReplicationQueues() const;
  AdminAnswer ChangeReplication(std::string_view path, std::string_view body) const;
  AdminAnswer GsiPropagation(bool get, bool post, std::string_view path) const;

  const RequestHandler& handler_;
  AdjustableClock& clock_;
  Replication* replication_ = nullptr;
  std::atomic<bool>* gsi_paused_ = nullptr;
};

}  // namespace ddbd
