// The items of one table: encoded key bytes -> item blob, in a B-tree ordered by key bytes.
//
// Thread safety: all members may be called from any thread; readers share a lock, writers take
// it exclusively. (Striping by key range comes with the performance work.)
#pragma once

#include <absl/container/btree_map.h>

#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

namespace ddbd {

struct StoredItem {
  std::string blob;     // engine/item_codec.h
  uint32_t size_bytes;  // DynamoDB item size, computed once per write
};

class TableItems {
 public:
  std::optional<StoredItem> Get(std::string_view key) const;
  // Inserts or replaces; returns the item it replaced.
  std::optional<StoredItem> Put(const std::string& key, StoredItem item);
  // Returns the item it removed.
  std::optional<StoredItem> Erase(std::string_view key);

  int64_t item_count() const;
  int64_t size_bytes() const;

 private:
  mutable std::shared_mutex mutex_;
  absl::btree_map<std::string, StoredItem, std::less<>> items_;
  int64_t size_bytes_ = 0;
};

}  // namespace ddbd
