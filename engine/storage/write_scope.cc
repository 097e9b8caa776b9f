#include "engine/storage/write_scope.h"

#include <algorithm>

#include "engine/storage/table_items.h"

namespace ddbd {

// A write waits for a replayed table's trees (TableItems::WaitForOrder) before its lock, which
// their build holds shared.
WriteScope::WriteScope(TableItems& table) : tables_{&table} {
  table.WaitForOrder();
  table.mutex_.lock();
}

WriteScope::WriteScope(std::span<TableItems* const> tables)
    : tables_(tables.begin(), tables.end()) {
  std::sort(tables_.begin(), tables_.end(),
            [](const TableItems* a, const TableItems* b) { return a->id() < b->id(); });
  tables_.erase(std::unique(tables_.begin(), tables_.end()), tables_.end());
  for (TableItems* table : tables_) table->WaitForOrder();
  for (TableItems* table : tables_) table->mutex_.lock();
}

ReadScope::ReadScope(std::span<const TableItems* const> tables)
    : tables_(tables.begin(), tables.end()) {
  std::sort(tables_.begin(), tables_.end(),
            [](const TableItems* a, const TableItems* b) { return a->id() < b->id(); });
  tables_.erase(std::unique(tables_.begin(), tables_.end()), tables_.end());
  for (const TableItems* table : tables_) table->mutex_.lock_shared();
}

ReadScope::~ReadScope() {
  for (auto it = tables_.rbegin(); it != tables_.rend(); ++it) (*it)->mutex_.unlock_shared();
}

WriteScope::~WriteScope() {
  for (auto it = tables_.rbegin(); it != tables_.rend(); ++it) (*it)->mutex_.unlock();
  for (ItemRecord* record : garbage_) ItemRecord::Destroy(record);
}

}  // namespace ddbd
