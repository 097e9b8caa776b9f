// A table's secondary indexes as writes and reads use them: which items an index holds (those
// with all its key attributes: indexes are sparse), the projected copy it keeps, DynamoDB's
// checks of index key values on write, and the entry key bytes (index key, then table key).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/api/tables.h"
#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "engine/model/item_key.h"
#include "engine/storage/table_items.h"

namespace ddbd {

struct TableIndex {
  size_t number = 0;  // its slot in TableItems
  IndexDescription description;
  KeyParts key;  // the index's own key: a global index's may have several attributes a part
  std::vector<AttributeType> partition_types;  // of key.partition, in order
  const std::string& name() const { return description.definition.index_name; }
  bool is_global() const { return description.is_global; }
  ProjectionType projection_type() const {
    return description.definition.projection.projection_type;
  }
};

class TableIndexes {
 public:
  TableIndexes() = default;
  // The indexes of `table` but those being deleted: local ones first, then global, in
  // definition order.
  explicit TableIndexes(const TableDescription& table);

  bool empty() const { return indexes_.empty(); }
  const std::vector<TableIndex>& list() const { return indexes_; }
  const TableIndex* Find(std::string_view name) const;
  // The index in slot `number` (TableIndex::number), null if none.
  const TableIndex* BySlot(size_t number) const;

  // ValidationException when an index key attribute of `item` has the wrong type or is empty,
  // naming the first such index by name.
  Status CheckItem(const Item& item) const;
  // The entries an item has in the indexes (none in those whose key attributes it lacks), from
  // the item as stored (its blob and DynamoDB size) and its table key bytes, without decoding
  // it: the index key attributes are found in the blob, an ALL projection keeps the blob as it
  // is and others copy the attributes they keep. Every write, replay, backfill and restore
  // computes this (twice for a write that replaces an item: the old item's entries go).
  IndexEntries EntriesFor(std::string_view table_key, std::string_view blob, uint32_t size,
                          WholeItems whole_items = WholeItems::kCopied) const {
    IndexEntries entries;
    EntriesInto(table_key, blob, size, whole_items, entries);
    return entries;
  }
  // The same into `entries`, in place of what it held, keeping the room of its entries' keys and
  // blobs: an index build computes its items' entries one after another into one vector.
  void EntriesInto(std::string_view table_key, std::string_view blob, uint32_t size,
                   WholeItems whole_items, IndexEntries& entries) const;
  IndexEntries EntriesFor(std::string_view table_key, const StoredItem& item) const {
    return EntriesFor(table_key, item.blob, item.size_bytes);
  }
  // The length of the partition part of an entry's key bytes in the index in slot `slot`
  // (TableItems::IndexPartitionLength).
  size_t PartitionLength(size_t slot, std::string_view entry_key) const;
  // Entry key bytes of `item` in `index`: index key bytes, then table key bytes.
  std::string EntryKey(const TableIndex& index, const Item& item) const;
  // Whether `index` keeps the attribute `name`: a key of the table or the index, or one its
  // projection includes (every attribute for ALL).
  bool Keeps(const TableIndex& index, std::string_view name) const;

  const KeyShape& table_key() const { return table_key_; }
  // The table's key in the form index keys have, for reads that go to the table.
  const KeyParts& table_parts() const { return table_parts_; }

 private:
  uint64_t serial_ = 0;  // this set's own, for the memo of index key bytes (table_indexes.cc)
  KeyShape table_key_;
  KeyParts table_parts_;
  std::vector<TableIndex> indexes_;
};

}  // namespace ddbd
