#include "server/admin_api.h"

#include <cmath>

#include "protocol/clock_request.h"
#include "protocol/replication_request.h"
#include "server/json_line.h"
#include "server/replication.h"

namespace ddbd {
namespace {

AdminAnswer Refuse(int status, std::string_view message) {
  AdminAnswer answer{status, R"({"message":")"};
  AppendJsonEscaped(answer.body, message);
  answer.body += "\"}";
  return answer;
}

}  // namespace

AdminAnswer AdminApi::Answer(std::string_view method, std::string_view path,
                             std::string_view body) const {
  const bool get = method == "GET";
  const bool post = method == "POST";
  if (path == "/_ddbd/ttl/sweep") {
    if (!post) return Refuse(405, "POST /_ddbd/ttl/sweep runs the Time to Live sweep");
    return {200, "{\"deleted\":" + std::to_string(handler_.SweepExpiredItems()) + "}"};
  }
  if (path == "/_ddbd/clock") {
    if (get) return ClockNow();
    if (post) return MoveClock(body);
    return Refuse(405, "GET /_ddbd/clock reads the clock, POST moves it forward");
  }
  if (path == "/_ddbd/replication" || path == "/_ddbd/replication/pause" ||
      path == "/_ddbd/replication/resume") {
    if (replication_ == nullptr) {
      return Refuse(404,
                    "replication needs a database per region: start ddbd with --namespaces "
                    "region (or credentials)");
    }
    if (path == "/_ddbd/replication") {
      if (!get) return Refuse(405, "GET /_ddbd/replication reads the replication queues");
      return ReplicationQueues();
    }
    if (!post) return Refuse(405, "POST " + std::string(path) + " with {\"source\", \"target\"}");
    return ChangeReplication(path, body);
  }
  if (path == "/_ddbd/gsi-propagation" || path == "/_ddbd/gsi-propagation/pause" ||
      path == "/_ddbd/gsi-propagation/resume") {
    return GsiPropagation(get, post, path);
  }
  return Refuse(404, "no admin call " + std::string(path.substr(0, 256)) +
                         " (there are POST /_ddbd/ttl/sweep, GET and POST /_ddbd/clock, GET "
                         "/_ddbd/replication, POST /_ddbd/replication/pause and /resume, GET "
                         "/_ddbd/gsi-propagation, POST /_ddbd/gsi-propagation/pause and /resume)");
}

AdminAnswer AdminApi::GsiPropagation(bool get, bool post, std::string_view path) const {
  if (gsi_paused_ == nullptr) {
    return Refuse(404,
                  "global secondary indexes are updated inside each write: start ddbd with "
                  "--gsi-lag-ms N to have them lag, and pause them");
  }
  if (path == "/_ddbd/gsi-propagation") {
    if (!get) return Refuse(405, "GET /_ddbd/gsi-propagation reads whether it is paused");
  } else if (!post) {
    return Refuse(405, "POST " + std::string(path) + " pauses or resumes it");
  } else {
    gsi_paused_->store(path.ends_with("/pause"), std::memory_order_relaxed);
  }
  return {200, std::string("{\"paused\":") +
                   (gsi_paused_->load(std::memory_order_relaxed) ? "true" : "false") + "}"};
}

AdminAnswer AdminApi::ReplicationQueues() const {
  std::string body = "{\"queues\":[";
  bool first = true;
  for (const Replication::QueueFigures& queue : replication_->Figures()) {
    body += first ? "" : ",";
    first = false;
    body += "{\"source\":\"";
    AppendJsonEscaped(body, queue.source);
    body += "\",\"target\":\"";
    AppendJsonEscaped(body, queue.target);
    body += "\",\"pending\":" + std::to_string(queue.pending) +
            ",\"lagMillis\":" + std::to_string(queue.lag_ms) +
            ",\"applied\":" + std::to_string(queue.applied) +
            ",\"paused\":" + (queue.paused ? "true" : "false") + "}";
  }
  return {200, body + "]}"};
}

AdminAnswer AdminApi::ChangeReplication(std::string_view path, std::string_view body) const {
  const auto regions = ReplicationRegionsOf(body);
  if (!regions) {
    return Refuse(
        400, R"(expected {"source": REGION, "target": REGION}, either left out for every region)");
  }
  if (path.ends_with("/pause")) {
    replication_->Pause(regions->first, regions->second);
  } else {
    replication_->Resume(regions->first, regions->second);
  }
  return ReplicationQueues();
}

AdminAnswer AdminApi::ClockNow() const {
  const int64_t offset_ms = clock_.offset_ms();
  const int64_t now_ms = clock_.NowMs();
  return {200, "{\"now\":\"" + UtcTimestamp(now_ms) + "\",\"epochMillis\":" +
                   std::to_string(now_ms) + ",\"offsetMillis\":" + std::to_string(offset_ms) + "}"};
}

AdminAnswer AdminApi::MoveClock(std::string_view body) const {
  constexpr std::string_view kUsage =
      R"(expected {"advanceSeconds": N}, {"advanceMillis": N} or {"epochSeconds": N})";
  const std::optional<double> move = ClockMoveMs(body, static_cast<double>(clock_.NowMs()));
  if (!move) return Refuse(400, kUsage);
  const double delta_ms = *move;
  if (!std::isfinite(delta_ms) || delta_ms < 0) {
    return Refuse(400, "the clock moves forward only (it is " + UtcTimestamp(clock_.NowMs()) +
                           "); restart ddbd to return to real time");
  }
  if (delta_ms + static_cast<double>(clock_.offset_ms()) > static_cast<double>(kMaxOffsetMs)) {
    return Refuse(400, "the clock moves at most a century ahead of real time in all");
  }
  clock_.AdvanceMs(static_cast<int64_t>(delta_ms));
  return ClockNow();
}

}  // namespace ddbd
