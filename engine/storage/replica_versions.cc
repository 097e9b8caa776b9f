#include "engine/storage/replica_versions.h"

#include <algorithm>

namespace ddbd {

WriteVersion ReplicaVersions::Committed(std::string_view key, bool made_here, int64_t now_us,
                                        const std::string& region, bool deleted) {
  std::lock_guard lock(mutex_);
  // The key is copied only for an item met for the first time.
  auto found = entries_.find(absl::string_view(key.data(), key.size()));
  if (found == entries_.end()) found = entries_.try_emplace(std::string(key)).first;
  Entry& entry = found->second;
  if (made_here) {
    entry.version.time_us = std::max(now_us, entry.version.time_us + 1);
    entry.version.region = region;
  }
  entry.deleted = deleted;
  return entry.version;
}

bool ReplicaVersions::Admit(std::string_view key, const WriteVersion& version) {
  std::lock_guard lock(mutex_);
  auto [it, added] = entries_.try_emplace(std::string(key), Entry{version, false});
  if (added) return true;
  if (!(it->second.version < version)) return false;
  it->second.version = version;
  return true;
}

void ReplicaVersions::Restore(std::string_view key, const WriteVersion& version, bool deleted) {
  std::lock_guard lock(mutex_);
  entries_.insert_or_assign(std::string(key), Entry{version, deleted});
}

std::optional<WriteVersion> ReplicaVersions::Find(std::string_view key) const {
  std::lock_guard lock(mutex_);
  auto found = entries_.find(absl::string_view(key.data(), key.size()));
  if (found == entries_.end()) return std::nullopt;
  return found->second.version;
}

std::vector<std::pair<std::string, WriteVersion>> ReplicaVersions::Tombstones() const {
  std::vector<std::pair<std::string, WriteVersion>> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, entry] : entries_) {
    if (entry.deleted) out.emplace_back(key, entry.version);
  }
  return out;
}

}  // namespace ddbd
