// Items held by transactions in flight: with --transaction-hold-ms, a transaction decides, holds
// its items for that long, then commits. Meanwhile a single-item write to one of them fails with
// TransactionConflictException and another transaction meeting one is cancelled with a
// TransactionConflict reason, as in DynamoDB (whose transactions take milliseconds, where ddbd's
// take microseconds and could not otherwise be met).
//
// Thread safety: all members may be called from any thread. Holding and checking an item happen
// under its table's write scope, so a check and the hold it races with are ordered by that lock.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/error.h"

namespace ddbd {

class HeldItems {
 public:
  // Whether the item with `key` in the table `table_id` is held by a transaction other than
  // `transaction` (0: by any). Cheap while nothing is held.
  bool HeldByOther(uint64_t table_id, std::string_view key, uint64_t transaction = 0) const;
  void Hold(uint64_t table_id, std::string_view key, uint64_t transaction);
  void Release(uint64_t table_id, std::string_view key);

 private:
  static std::string Id(uint64_t table_id, std::string_view key);
  mutable std::mutex mutex_;
  absl::flat_hash_map<std::string, uint64_t> held_;
  std::atomic<size_t> count_ = 0;
};

// "Transaction is ongoing for the item", DynamoDB's words.
Error TransactionConflict();

}  // namespace ddbd
