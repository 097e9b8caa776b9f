#include "engine/streams/stream_directory.h"

#include <mutex>
#include <utility>

namespace ddbd {

bool StreamDirectory::IsKinesisFeed(std::string_view arn) {
  return arn.find(kKinesisFeedPart) != std::string_view::npos;
}

std::shared_ptr<TableStream> StreamDirectory::Find(std::string_view arn) const {
  if (IsKinesisFeed(arn)) return nullptr;
  std::shared_ptr<TableStream> stream = FindAny(arn);
  if (stream && stream->Expired()) return nullptr;
  return stream;
}

std::shared_ptr<TableStream> StreamDirectory::FindAny(std::string_view arn) const {
  std::shared_lock lock(mutex_);
  auto it = streams_.find(arn);
  return it == streams_.end() ? nullptr : it->second;
}

bool StreamDirectory::Contains(std::string_view arn) const {
  std::shared_lock lock(mutex_);
  return streams_.contains(arn);
}

void StreamDirectory::Add(std::shared_ptr<TableStream> stream) {
  std::unique_lock lock(mutex_);
  std::string arn = stream->summary().stream_arn;
  streams_.emplace(std::move(arn), std::move(stream));
}

void StreamDirectory::ForgetExpired() {
  std::unique_lock lock(mutex_);
  std::erase_if(streams_, [](const auto& stream) { return stream.second->Expired(); });
}

void StreamDirectory::Walk(
    const std::optional<std::string>& exclusive_start_arn,
    const std::function<bool(const std::shared_ptr<TableStream>&)>& visit) const {
  std::shared_lock lock(mutex_);
  auto it = exclusive_start_arn ? streams_.upper_bound(*exclusive_start_arn) : streams_.begin();
  for (; it != streams_.end(); ++it) {
    if (IsKinesisFeed(it->first)) continue;
    if (!visit(it->second)) return;
  }
}

std::vector<std::shared_ptr<TableStream>> StreamDirectory::All() const {
  std::vector<std::shared_ptr<TableStream>> all;
  std::shared_lock lock(mutex_);
  all.reserve(streams_.size());
  for (const auto& named : streams_) all.push_back(named.second);
  return all;
}

}  // namespace ddbd
