#include "engine/storage/replica_log.h"

#include <algorithm>

namespace ddbd {

void ReplicaLog::SetTargets(std::vector<std::string> regions, std::vector<std::string> sourced) {
  std::lock_guard lock(mutex_);
  targets_ = std::move(regions);
  sourced_ = std::move(sourced);
}

std::vector<std::string> ReplicaLog::targets() const {
  std::lock_guard lock(mutex_);
  return targets_;
}

void ReplicaLog::OnCommit(const ChangeRecord& change) {
  if (change.kind == ChangeKind::kNone || change.origin == ChangeOrigin::kBackfill) return;
  const bool made_here = change.origin != ChangeOrigin::kReplication;
  ReplicatedWrite write;
  write.version = versions_->Committed(change.key, made_here, clock_.NowMs() * 1000, region_,
                                       change.kind == ChangeKind::kRemove);
  // The log keeps it with the change: a restart knows which region's write is newer.
  if (change.log != nullptr) change.log->replica_version = write.version;
  std::vector<std::string> to;
  {
    std::lock_guard lock(mutex_);
    to = made_here ? targets_ : sourced_;
  }
  // Never back to the region that made it.
  if (!made_here) std::erase(to, write.version.region);
  if (to.empty()) return;
  write.table_name = table_name_;
  write.key = std::string(change.key);
  if (change.kind != ChangeKind::kRemove) {
    write.item = std::string(change.new_item);
    write.item_size = change.new_size;
  }
  link_.Replicate(region_, to, std::move(write));
}

bool ReplicaLog::Admit(std::string_view key, const WriteVersion& version) {
  return versions_->Admit(key, version);
}

ReplicatedWrite ReplicaLog::StoredWrite(std::string_view key, std::string_view blob,
                                        uint32_t size) const {
  ReplicatedWrite write;
  write.table_name = table_name_;
  write.key = std::string(key);
  write.item = std::string(blob);
  write.item_size = size;
  // An item without one (written before the table had replicas) goes with the zero version.
  if (std::optional<WriteVersion> version = versions_->Find(key)) write.version = *version;
  return write;
}

void ReplicaLog::Resend(const TableItems& items, const std::string& region,
                        const std::vector<std::string>& keys) {
  const std::vector<std::string> to{region};
  items.WhileHeld([&] {
    for (const std::string& key : keys) {
      std::string_view blob;  // none: deleted
      uint32_t size = 0;
      (void)items.FindDuringWalk(key, &blob, &size);
      link_.Replicate(region_, to, StoredWrite(key, blob, size));
    }
  });
}

void ReplicaLog::CopyTo(const TableItems& items, const std::string& region) {
  const std::vector<std::string> to{region};
  items.WalkAllThen(
      [&](std::string_view key, std::string_view blob, uint32_t size) {
        link_.Replicate(region_, to, StoredWrite(key, blob, size));
        return true;
      },
      [&] {
        link_.CopyQueued(region_, region, table_name_);
        std::lock_guard lock(mutex_);
        if (std::find(targets_.begin(), targets_.end(), region) == targets_.end()) {
          targets_.push_back(region);
        }
        if (std::find(sourced_.begin(), sourced_.end(), region) == sourced_.end()) {
          sourced_.push_back(region);
        }
      });
}

}  // namespace ddbd
