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
  std::vector<std::string> to;
  {
    std::lock_guard lock(mutex_);
    // The key is copied only for an item met for the first time.
    auto found = versions_.find(absl::string_view(change.key.data(), change.key.size()));
    if (found == versions_.end()) found = versions_.try_emplace(std::string(change.key)).first;
    WriteVersion& version = found->second;
    if (made_here) {
      // Later than anything the item had, even if the clock was moved or another region's write
      // carried a later time: every region then orders this write after what it overwrote.
      version.time_us = std::max(clock_.NowMs() * 1000, version.time_us + 1);
      version.region = region_;
    }  // else Admit gave it the version it came with
    write.version = version;
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
  std::lock_guard lock(mutex_);
  auto [it, added] = versions_.try_emplace(std::string(key), version);
  if (added) return true;
  if (!(it->second < version)) return false;
  it->second = version;
  return true;
}

void ReplicaLog::CopyTo(const TableItems& items, const std::string& region) {
  const std::vector<std::string> to{region};
  items.WalkAllThen(
      [&](std::string_view key, std::string_view blob, uint32_t size) {
        ReplicatedWrite write;
        write.table_name = table_name_;
        write.key = std::string(key);
        write.item = std::string(blob);
        write.item_size = size;
        {
          std::lock_guard lock(mutex_);
          if (auto it = versions_.find(absl::string_view(key.data(), key.size()));
              it != versions_.end()) {
            write.version = it->second;
          }
        }
        link_.Replicate(region_, to, std::move(write));
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
