#include "engine/api/replicas.h"

#include <string_view>
#include <unordered_map>

namespace ddbd {

std::vector<std::string> KeysNewerThan(const ReplicaVersionList& here,
                                       const ReplicaVersionList& there) {
  std::unordered_map<std::string_view, const WriteVersion*> known;
  known.reserve(there.size());
  for (const auto& [key, version] : there) known.emplace(key, &version);
  std::vector<std::string> newer;
  for (const auto& [key, version] : here) {
    auto found = known.find(key);
    if (found == known.end() || *found->second < version) newer.push_back(key);
  }
  return newer;
}

}  // namespace ddbd
