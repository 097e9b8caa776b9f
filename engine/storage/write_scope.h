// A write scope: the tables a write (or, later, a transaction) changes, locked for writing in one
// fixed order (by table id), so two scopes that share tables cannot deadlock. Every change to a
// table's items is made through TableItems::Commit inside one.
//
// Records a change replaces or removes are freed when the scope ends, after the locks are
// released: observers' views of the old item stay valid while the scope lasts, and readers are
// not held up by the frees.
//
// Thread safety: a scope belongs to the thread that made it.
#pragma once

#include <absl/container/inlined_vector.h>

#include <algorithm>
#include <cstdint>
#include <span>

#include "engine/storage/change.h"

namespace ddbd {

class TableItems;
struct ItemRecord;
// Records to free once the write locks are released.
using Garbage = absl::InlinedVector<ItemRecord*, 4>;

// Several tables held for reading at once, in table id order: a consistent view of items in
// several tables (TransactGetItems). Writes wait meanwhile.
class ReadScope {
 public:
  explicit ReadScope(std::span<const TableItems* const> tables);
  ~ReadScope();
  ReadScope(const ReadScope&) = delete;
  ReadScope& operator=(const ReadScope&) = delete;
  bool Holds(const TableItems& table) const {
    return std::find(tables_.begin(), tables_.end(), &table) != tables_.end();
  }

 private:
  absl::InlinedVector<const TableItems*, 4> tables_;
};

class WriteScope {
 public:
  // Locks `table` (the scope of a single-item write).
  explicit WriteScope(TableItems& table);
  // Locks each of `tables` once, in table id order.
  explicit WriteScope(std::span<TableItems* const> tables);
  ~WriteScope();
  WriteScope(const WriteScope&) = delete;
  WriteScope& operator=(const WriteScope&) = delete;

  bool Holds(const TableItems& table) const {
    return std::find(tables_.begin(), tables_.end(), &table) != tables_.end();
  }
  // Its changes' log records join `group` (a transaction's) rather than each going alone.
  void JoinLog(LogGroup* group) { log_.group = group; }
  // The last log record of its changes so far; 0: none.
  uint64_t ticket() const { return log_.ticket; }

 private:
  friend class TableItems;
  absl::InlinedVector<TableItems*, 1> tables_;
  LogSlot log_;
  Garbage garbage_;
};

}  // namespace ddbd
