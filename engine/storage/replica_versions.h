// Each item's write version in a replicated table (global tables, last writer wins: engine/api/
// replicas.h WriteVersion), deletions' included (tombstones): what decides whether a change from
// another region is newer than what is here. The log keeps a change's version with the change and
// a checkpoint keeps each item's and tombstone's, so a restart (a crash too) knows them all, and
// the regions can then be compared and brought level (server/replication.h Reconcile).
//
// Thread safety: every member may be called from any thread; the commit path calls under the
// table's write lock, readers of a consistent view under its read lock.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/replicas.h"

namespace ddbd {

class ReplicaVersions {
 public:
  // A change committed to `key`: made here (`now_us`, `region`), it gets a version later than
  // anything the item had, even if the clock was moved or another region's write carried a
  // later time, so every region orders it after what it overwrote; applied from another region,
  // it keeps the version Admit gave it. Returns the version.
  WriteVersion Committed(std::string_view key, bool made_here, int64_t now_us,
                         const std::string& region, bool deleted);
  // Whether `version` is newer than the item's here; if so it becomes the item's version.
  bool Admit(std::string_view key, const WriteVersion& version);
  // A version as the log or a checkpoint kept it (replay: the last record read wins).
  void Restore(std::string_view key, const WriteVersion& version, bool deleted);

  // The item's version; nullopt if it has none (written before the table had replicas, or
  // never).
  std::optional<WriteVersion> Find(std::string_view key) const;
  // The deleted items' versions.
  std::vector<std::pair<std::string, WriteVersion>> Tombstones() const;

 private:
  struct Entry {
    WriteVersion version;
    bool deleted = false;
  };
  mutable std::mutex mutex_;
  absl::flat_hash_map<std::string, Entry> entries_;
};

}  // namespace ddbd
