#include "engine/triggers/trigger_positions.h"

#include <charconv>
#include <string_view>
#include <utility>

namespace ddbd {

TriggerPositions::TriggerPositions(FileSystem* files, std::string directory)
    : files_(files), directory_(std::move(directory)) {}

void TriggerPositions::Load() {
  if (!files_) return;
  auto text = files_->ReadFile(directory_ + "/stream-triggers");
  if (!text.ok()) return;  // none yet
  std::string_view rest = text.value();
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    if (end == std::string_view::npos) break;  // an unfinished line: never written by Save
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end + 1);
    const size_t first = line.find('\t');
    const size_t second = line.find('\t', first == std::string_view::npos ? first : first + 1);
    if (first == std::string_view::npos || second == std::string_view::npos) continue;
    TriggerPosition position;
    position.stream_arn = std::string(line.substr(first + 1, second - first - 1));
    const std::string_view number = line.substr(second + 1);
    auto [end_of_number, error] =
        std::from_chars(number.data(), number.data() + number.size(), position.sequence);
    if (error != std::errc() || end_of_number != number.data() + number.size()) continue;
    positions_[std::string(line.substr(0, first))] = std::move(position);
  }
}

const TriggerPosition* TriggerPositions::Find(const std::string& name) const {
  auto it = positions_.find(name);
  return it == positions_.end() ? nullptr : &it->second;
}

Status TriggerPositions::Save(const std::string& name, const TriggerPosition& position) {
  positions_[name] = position;
  if (!files_) return Ok{};
  std::string text;
  for (const auto& [each, kept] : positions_) {
    text += each + '\t' + kept.stream_arn + '\t' + std::to_string(kept.sequence) + '\n';
  }
  const std::string path = directory_ + "/stream-triggers";
  const std::string fresh = path + ".new";
  (void)files_->Remove(fresh);  // a crash's leftover
  auto file = files_->OpenAppendable(fresh);
  if (!file.ok()) return file.error();
  if (Status appended = file.value()->Append(text); !appended.ok()) return appended;
  if (Status synced = file.value()->Sync(); !synced.ok()) return synced;
  file.value().reset();
  if (Status renamed = files_->Rename(fresh, path); !renamed.ok()) return renamed;
  return files_->SyncDirectory(directory_);
}

}  // namespace ddbd
