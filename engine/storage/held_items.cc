#include "engine/storage/held_items.h"

namespace ddbd {

std::string HeldItems::Id(uint64_t table_id, std::string_view key) {
  std::string id(reinterpret_cast<const char*>(&table_id), sizeof(table_id));
  id.append(key);
  return id;
}

bool HeldItems::HeldByOther(uint64_t table_id, std::string_view key, uint64_t transaction) const {
  if (count_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(mutex_);
  auto it = held_.find(Id(table_id, key));
  return it != held_.end() && it->second != transaction;
}

void HeldItems::Hold(uint64_t table_id, std::string_view key, uint64_t transaction) {
  std::lock_guard lock(mutex_);
  if (held_.insert_or_assign(Id(table_id, key), transaction).second) ++count_;
}

void HeldItems::Release(uint64_t table_id, std::string_view key) {
  std::lock_guard lock(mutex_);
  if (held_.erase(Id(table_id, key)) > 0) --count_;
}

Error TransactionConflict() {
  return Error(ErrorCode::kTransactionConflict, "Transaction is ongoing for the item");
}

}  // namespace ddbd
