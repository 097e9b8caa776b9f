// Global tables between the server's regions (issue 43): the ReplicationLink each engine is given
// (engine/api/replication_link.h), and the queues that carry a replicated table's changes from one
// region's engine to another's after --replication-delay-ms, one queue per (access key id, source
// region, target region) (and target access key id: a multi-account table's members differ), each
// applied in order by one thread. A test may pause and resume the queues between two regions (the
// admin API's /_ddbd/replication/pause and /resume), so writes pile up unseen in the other region,
// and read what is pending and how late it is (/metrics, GET /_ddbd/replication).
//
// Changes are applied with last writer wins (Engine::ApplyReplicatedWrite), so the order in which
// different queues reach one region never matters: every replica settles on the same item.
// Pending changes live in memory only. What a stop or a crash leaves pending is not lost: each
// region's log keeps every change with its write version (engine/storage/replica_versions.h), so
// at the next start Reconcile compares the regions' versions item by item and queues whatever one
// region has newer than another.
//
// Thread safety: every member may be called from any thread; Replicate (through a link) is called
// inside commits and only queues.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/api/replication_link.h"
#include "engine/engine.h"

namespace ddbd {

class Replication {
 public:
  // The engine of the database an access key id uses in a region, made if needed.
  using EngineFor =
      std::function<Result<Engine*>(const std::string& access_key_id, const std::string& region)>;
  // `unavailable`: empty when each region has a database of its own; else why replicas are
  // refused (the ValidationException's text). `accounts_unavailable`: the same for replicas in
  // other accounts (multi-account global tables), which need a database per access key id.
  Replication(int64_t delay_ms, EngineFor engine_for, std::string unavailable,
              std::string accounts_unavailable);
  ~Replication();  // Stop()
  // Stops applying (once the change being applied is). Call before the engines go.
  void Stop();
  // At start, before requests are served, for the databases opened from disk (access key id,
  // region): each replicated table's items and deletions whose version in one member is newer
  // than in another (or that another lacks) are queued for it, and copies to new replicas that
  // a stop cut short are queued again. Returns how many changes were queued.
  size_t Reconcile(const std::vector<std::pair<std::string, std::string>>& databases);
  Replication(const Replication&) = delete;
  Replication& operator=(const Replication&) = delete;

  // The link for the engines an access key id uses (one per namespace; all share the queues).
  std::shared_ptr<ReplicationLink> LinkFor(const std::string& access_key_id);

  // Holds (or releases) the queues from `source` to `target`; an empty name is every region.
  void Pause(const std::string& source, const std::string& target);
  void Resume(const std::string& source, const std::string& target);

  struct QueueFigures {
    std::string source;
    std::string target;
    uint64_t pending = 0;
    int64_t lag_ms = 0;  // how long the oldest pending change has waited (0: none)
    uint64_t applied = 0;
    bool paused = false;
  };
  std::vector<QueueFigures> Figures() const;
  // Prometheus lines for /metrics: pending changes and lag per source and target region.
  std::string RenderMetrics() const;

 private:
  class Link;
  struct Entry {
    int64_t due_ms = 0;     // steady clock
    int64_t queued_ms = 0;  // steady clock
    ReplicatedWrite write;
    bool copy_done = false;  // no write: the target's copy of write.table_name is complete
  };
  struct Queue {
    std::deque<Entry> entries;
    uint64_t applied = 0;
  };
  // (source access key id, source region, target access key id, target region): the two keys
  // differ only for a multi-account global table's members.
  using QueueKey = std::tuple<std::string, std::string, std::string, std::string>;

  void Enqueue(const std::string& access_key_id, const std::string& from, const std::string& to,
               ReplicatedWrite write, bool copy_done);
  bool PausedLocked(const std::string& source, const std::string& target) const;
  // Multi-region strong consistency (ReplicationLink's BeginStrongWrite, EndStrongWrite and
  // CheckStrongRead, for the link of `access_key_id`).
  Status BeginStrongWrite(const std::string& access_key_id, const std::string& region,
                          const StrongMembers& members, std::string_view key);
  void EndStrongWrite(const std::string& access_key_id, const std::string& region,
                      const StrongMembers& members, std::string_view key);
  Status CheckStrongRead(const std::string& access_key_id, const std::string& region,
                         const StrongMembers& members) const;
  // Whether `region` and another member reach each other (replication paused neither way).
  bool ReachableLocked(const std::string& region, const std::string& member) const;
  // Whether `region` reaches another member of a STRONG table: a quorum, with itself.
  bool QuorumLocked(const std::string& region, const StrongMembers& members) const;
  // Whether a paused queue to `region` holds a change of the table (of the item `key`, unless
  // null), which `region` would not see.
  bool HeldBackLocked(const std::string& access_key_id, const std::string& region,
                      const StrongMembers& members, const std::string* key) const;
  void Run();
  void Apply(const QueueKey& key, const Entry& entry);

  // Held while a change is taken from a queue and applied, by the queues' thread and by a
  // STRONG write's EndStrongWrite: once it holds it, no change taken before is half-applied.
  // Taken before `mutex_`, never after.
  std::mutex apply_mutex_;
  // The items STRONG writes are changing: (access key id, table, key) -> (region, writes).
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::string, int>>
      strong_claims_;
  const int64_t delay_ms_;
  const EngineFor engine_for_;
  const std::string unavailable_;
  const std::string accounts_unavailable_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<QueueKey, Queue> queues_;
  std::set<std::pair<std::string, std::string>> paused_;  // (source, target); "" is any
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace ddbd
