// What the single-item writes and TransactWriteItems share, over the ItemTable the catalog finds
// for them (private to the engine): the checks a write makes of its item, its condition and its
// update, and the figures a commit reports (capacity units, item collection metrics).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/items.h"
#include "engine/capacity/capacity.h"
#include "engine/catalog/catalog.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "engine/model/document_path.h"

namespace ddbd {

// Whether an operation must work out what it consumed: the caller asked, or it is charged (every
// table counts its usage for /metrics, so today always; throughput buckets only ever come with it).
inline bool Counted(ReturnConsumedCapacity mode, const ItemTable& table) {
  return mode != ReturnConsumedCapacity::kNone || table.usage != nullptr;
}
// Charges what an operation consumed: to the table's usage figures, and to its throughput
// buckets when throughput is enforced.
inline void ChargeRead(const ItemTable& table, const ConsumedCapacity& consumed, int64_t now_ms) {
  if (table.usage) table.usage->ChargeRead(consumed);
  if (table.throughput) table.throughput->ChargeRead(consumed, now_ms);
}
inline void ChargeWrite(const ItemTable& table, const ConsumedCapacity& consumed, int64_t now_ms) {
  if (table.usage) table.usage->ChargeWrite(consumed);
  if (table.throughput) table.throughput->ChargeWrite(consumed, now_ms);
}
// The time buckets refill by and Contributor Insights counts by; read only when throughput is
// enforced or insights are on (a clock reading is a measurable part of a GetItem).
inline int64_t ThroughputNow(const Clock& clock, const ItemTable& table) {
  return table.throughput || table.insights ? clock.NowMs() : 0;
}
// A write may start unless the table or one of its global indexes is out of capacity; a read
// unless the table (`index` empty) or that global index is.
inline Status AdmitWrite(const ItemTable& table, int64_t now_ms) {
  return table.throughput ? table.throughput->AdmitWrite(now_ms) : Status(Ok{});
}
inline Status AdmitRead(const ItemTable& table, std::string_view index, int64_t now_ms) {
  return table.throughput ? table.throughput->AdmitRead(index, now_ms) : Status(Ok{});
}

// A write's claim on its item in a global table with multi-region strong consistency
// (ReplicationLink::BeginStrongWrite): refused when the region reaches no other member or
// another region is changing the item; ended (EndStrongWrite: the change applied in the other
// members) when the claim goes, after the commit. Nothing for any other table.
class StrongWriteClaim {
 public:
  StrongWriteClaim() = default;
  StrongWriteClaim(const StrongWriteClaim&) = delete;
  StrongWriteClaim& operator=(const StrongWriteClaim&) = delete;
  ~StrongWriteClaim() {
    if (table_ != nullptr) End();
  }
  Status Begin(const ItemTable& table, std::string_view key) {
    if (!table.strong) return Ok{};
    return BeginStrong(table.strong, key);
  }

 private:
  Status BeginStrong(const std::shared_ptr<const StrongTable>& table, std::string_view key);
  void End();
  std::shared_ptr<const StrongTable> table_;
  std::string key_;
};

// Before a strongly consistent read of a STRONG global table's items: refused when this region
// reaches no other member, or a change of the table is held on its way here.
inline Status CheckStrongRead(const ItemTable& table, bool consistent_read) {
  if (!table.strong || !consistent_read) return Ok{};
  return table.strong->link->CheckStrongRead(table.strong->region, table.strong->members);
}

// A read's item as its answer gives it: with `projection`, decoded once and projected (the
// stored form dropped); without, left as stored.
void Project(const std::vector<DocumentPath>* projection, ReadItem& read);

// ValidationException for an item over 400 KB.
Status CheckItemSize(size_t size);

// The item a write finds (null: none), decoded on first use only: a write's condition and its
// update share one decode of the stored item, under the table's write lock.
class FoundItem {
 public:
  explicit FoundItem(const TableItems::Current* current) : current_(current) {}
  bool exists() const { return current_ != nullptr; }
  // The decoded item; empty when there is none.
  const Item& item();
  // The same, moved out (decoded now if it was not yet).
  Item Take();

 private:
  const TableItems::Current* current_;
  std::optional<Item> decoded_;
};

// ConditionalCheckFailedException unless `condition` (may be null: none) holds for `found`;
// carrying the item when `return_item` (ALL_OLD) and there is one. Without a condition nothing
// is decoded.
Status CheckCondition(const Condition* condition, bool return_item, FoundItem& found);

// ValidationException for an action on a key attribute; else the paths the actions name (for
// UPDATED_OLD / UPDATED_NEW).
Result<std::vector<DocumentPath>> CheckUpdatePaths(const KeyShape& shape,
                                                   const std::vector<UpdateAction>& actions);

// What an update makes of the current item (null: none): the item before and after, stored and
// indexed, ready to commit; or nothing to write, for an update that only removes from a missing
// item. ValidationException for an invalid operand or path, an item over 400 KB, or an index key
// of the wrong type.
struct UpdatedItem {
  bool writes = true;  // false: only removals, and no item
  Item old_item;
  Item new_item;
  StoredItem stored;
  IndexEntries entries;
};
// `key_bytes`: `key`'s (ItemKeyBytes); `statement_sized`: UpdateItemArgs::statement_sized.
Result<UpdatedItem> ApplyUpdateTo(const ItemTable& table, const Item& key,
                                  std::string_view key_bytes,
                                  const std::vector<UpdateAction>& actions, FoundItem& found,
                                  bool statement_sized = false);

// Adds what a committed change cost: the table's write units, and each changed index entry's.
void AddWriteCapacity(const Committed& change, const TableIndexes& indexes,
                      ConsumedCapacity& consumed);

// The item collection's key and SizeEstimateRangeGB ([0, 1] below 1 GB).
ItemCollectionMetrics CollectionMetrics(const KeyShape& shape, const Item& item,
                                        int64_t collection_bytes);

// The entry of `table_name` in a per-table list, added at the end if missing.
ConsumedCapacity& TableConsumption(std::vector<ConsumedCapacity>& per_table,
                                   const std::string& table_name);
void AddCollectionMetrics(
    std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table,
    const std::string& table_name, ItemCollectionMetrics metrics);

}  // namespace ddbd
