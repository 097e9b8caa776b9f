// A replicated table's side of global tables (issue 43): observes every change committed to the
// table here and hands each, with its write version (engine/storage/replica_versions.h, where
// each item's is kept), to the link for the other regions, and to the log with the change.
//
// Thread safety: OnCommit, Admit and the walk in CopyTo run under the table's items lock (write
// or read), so one table's calls never overlap a commit; the mutex guards the targets.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/replication_link.h"
#include "engine/clock.h"
#include "engine/storage/change.h"
#include "engine/storage/replica_versions.h"
#include "engine/storage/table_items.h"

namespace ddbd {

class ReplicaLog final : public CommitObserver {
 public:
  ReplicaLog(std::string table_name, std::string region, ReplicationLink& link, const Clock& clock,
             std::shared_ptr<ReplicaVersions> versions)
      : table_name_(std::move(table_name)),
        region_(std::move(region)),
        link_(link),
        clock_(clock),
        versions_(std::move(versions)) {}

  // The members this table's changes go to, by address (MemberAddress: a region, or a
  // multi-account member's access key id and region): the replica set but this region; and
  // those of them this region made replicas of (`sourced`): they also get the changes other
  // regions send here, since a change on its way here when their copy was taken reached them by
  // no other path.
  void SetTargets(std::vector<std::string> regions, std::vector<std::string> sourced);
  std::vector<std::string> targets() const;

  // CommitObserver: a change made here (not an index backfill, which changes no item) gets the
  // next version of its item and is queued for every target; one applied from another region
  // goes on, with its own version, to the sourced regions. Either way the version goes to the
  // log with the change (LogSlot::replica_version).
  void OnCommit(const ChangeRecord& change) override;

  // Inside the decide of a commit of `version` to `key` (the table's write lock held): whether
  // it is newer than the item's version here; if so it becomes the item's version.
  bool Admit(std::string_view key, const WriteVersion& version);

  // After a restart: queues the items with `keys` (their versions newer than `region`'s) for
  // `region`, deleted ones as deletions.
  void Resend(const TableItems& items, const std::string& region,
              const std::vector<std::string>& keys);
  // Queues every item of `items` for `region` (a new replica), with its version, then the news
  // that the copy is complete; from then on `region` is a target. One hold of the read lock:
  // no change falls between the copy and the first change queued after it.
  void CopyTo(const TableItems& items, const std::string& region);

 private:
  // The item at `key` as stored here (`blob` empty: deleted), with its version, as a change
  // for another region. Under the table's lock.
  ReplicatedWrite StoredWrite(std::string_view key, std::string_view blob, uint32_t size) const;

  const std::string table_name_;
  const std::string region_;
  ReplicationLink& link_;
  const Clock& clock_;
  const std::shared_ptr<ReplicaVersions> versions_;
  mutable std::mutex mutex_;
  std::vector<std::string> targets_;
  std::vector<std::string> sourced_;
};

}  // namespace ddbd
