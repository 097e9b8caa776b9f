#include "engine/api/replicas.h"

#include <algorithm>
#include <array>
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

bool InOneStrongRegionSet(const std::vector<std::string>& regions) {
  static constexpr std::array<std::array<std::string_view, 4>, 3> kSets{{
      {"us-east-1", "us-east-2", "us-west-2", ""},
      {"eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"},
      {"ap-northeast-1", "ap-northeast-2", "ap-northeast-3", ""},
  }};
  return std::any_of(kSets.begin(), kSets.end(), [&](const auto& set) {
    return std::all_of(regions.begin(), regions.end(), [&](const std::string& region) {
      return !region.empty() && std::find(set.begin(), set.end(), region) != set.end();
    });
  });
}

bool IsAccountId(std::string_view text) {
  return text.size() == 12 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool MultiAccount(const std::vector<ReplicaDescription>& replicas) {
  return std::any_of(replicas.begin(), replicas.end(),
                     [](const ReplicaDescription& replica) { return !replica.account_id.empty(); });
}

std::string MemberAddress(const ReplicaDescription& replica) {
  if (replica.access_key_id.empty()) return replica.region_name;
  return replica.access_key_id + "/" + replica.region_name;
}

std::pair<std::string, std::string> ParseMemberAddress(std::string_view address,
                                                       const std::string& own_access_key_id) {
  const size_t split = address.find('/');
  if (split == std::string_view::npos) return {own_access_key_id, std::string(address)};
  return {std::string(address.substr(0, split)), std::string(address.substr(split + 1))};
}

}  // namespace ddbd
