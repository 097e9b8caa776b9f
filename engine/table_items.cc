#include "engine/table_items.h"

#include <mutex>

namespace ddbd {

std::optional<StoredItem> TableItems::Get(std::string_view key) const {
  std::shared_lock lock(mutex_);
  auto it = items_.find(key);
  if (it == items_.end()) return std::nullopt;
  return it->second;
}

std::optional<StoredItem> TableItems::Put(const std::string& key, StoredItem item) {
  std::unique_lock lock(mutex_);
  size_bytes_ += item.size_bytes;
  auto [it, inserted] = items_.try_emplace(key, std::move(item));
  if (inserted) return std::nullopt;
  // try_emplace left `item` untouched when the key existed.
  std::optional<StoredItem> old = std::move(it->second);
  size_bytes_ -= old->size_bytes;
  it->second = std::move(item);
  return old;
}

std::optional<StoredItem> TableItems::Erase(std::string_view key) {
  std::unique_lock lock(mutex_);
  auto it = items_.find(key);
  if (it == items_.end()) return std::nullopt;
  std::optional<StoredItem> old = std::move(it->second);
  size_bytes_ -= old->size_bytes;
  items_.erase(it);
  return old;
}

int64_t TableItems::item_count() const {
  std::shared_lock lock(mutex_);
  return static_cast<int64_t>(items_.size());
}

int64_t TableItems::size_bytes() const {
  std::shared_lock lock(mutex_);
  return size_bytes_;
}

}  // namespace ddbd
