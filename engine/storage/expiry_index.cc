#include "engine/storage/expiry_index.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/model/item_codec.h"

namespace ddbd {

std::optional<int64_t> ExpiryMsOf(std::string_view epoch_seconds) {
  // A long double holds any epoch of interest to the millisecond (64-bit mantissa); the stored
  // number stays exact, this is only when it falls due.
  const std::string text(epoch_seconds);
  char* end = nullptr;
  const long double seconds = std::strtold(text.c_str(), &end);
  if (end == text.c_str()) return std::nullopt;
  const long double ms = std::ceil(seconds * 1000.0L);
  constexpr auto kMax = static_cast<long double>(std::numeric_limits<int64_t>::max() / 2);
  if (ms >= kMax) return std::numeric_limits<int64_t>::max() / 2;
  if (ms <= -kMax) return std::numeric_limits<int64_t>::min() / 2;
  return static_cast<int64_t>(ms);
}

bool IsDue(int64_t expires_ms, int64_t now_ms) {
  return expires_ms <= now_ms && expires_ms >= now_ms - kTimeToLiveHorizonMs;
}

std::shared_ptr<ExpiryIndex> ExpiryIndex::Attach(TableItems& items, std::string attribute_name) {
  auto index = std::make_shared<ExpiryIndex>(std::move(attribute_name));
  items.Observe(
      index, [&index](std::string_view key, std::string_view blob) { index->Gather(key, blob); },
      [&index] { index->AddGathered(); });
  return index;
}

std::optional<int64_t> ExpiryIndex::ExpiryOf(std::string_view blob) const {
  if (blob.empty()) return std::nullopt;
  const auto value = FindScalarAttribute(blob, attribute_name_, AttributeType::kN);
  if (!value) return std::nullopt;
  return ExpiryMsOf(*value);
}

void ExpiryIndex::OnCommit(const ChangeRecord& change) {
  if (change.kind == ChangeKind::kNone) return;
  const std::optional<int64_t> before = ExpiryOf(change.old_item);
  const std::optional<int64_t> after = ExpiryOf(change.new_item);
  if (before == after) return;
  std::lock_guard lock(mutex_);
  if (before) entries_.erase({*before, std::string(change.key)});
  if (after) entries_.emplace(*after, std::string(change.key));
}

void ExpiryIndex::Gather(std::string_view key, std::string_view blob) {
  const std::optional<int64_t> expires = ExpiryOf(blob);
  if (expires) gathered_.emplace_back(*expires, std::string(key));
}

void ExpiryIndex::AddGathered() {
  std::sort(gathered_.begin(), gathered_.end());
  std::lock_guard lock(mutex_);
  for (auto& entry : gathered_) entries_.emplace_hint(entries_.end(), std::move(entry));
  gathered_.clear();
  gathered_.shrink_to_fit();
}

std::vector<std::string> ExpiryIndex::Due(int64_t now_ms, size_t limit) const {
  std::vector<std::string> keys;
  std::lock_guard lock(mutex_);
  // Items past the five-year horizon stay indexed (an update may move them) but are skipped.
  for (auto it = entries_.lower_bound({now_ms - kTimeToLiveHorizonMs, std::string()});
       it != entries_.end() && it->first <= now_ms && keys.size() < limit; ++it) {
    keys.push_back(it->second);
  }
  return keys;
}

size_t ExpiryIndex::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace ddbd
