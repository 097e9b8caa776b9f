// A table's entry as the catalog makes it (CreateTable, a restore, an import, a replay): its
// items' layout, its indexes and item collections, and the options that make reads lag.
#include <algorithm>
#include <limits>
#include <memory>

#include "engine/catalog/catalog.h"
#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"

namespace ddbd {

void Catalog::StartEventualConsistency(TableEntry& entry) const {
  if (options.gsi_lag_max_ms > 0) {  // --gsi-lag-ms: global indexes lag behind writes
    entry.items->LagGlobalIndexes(
        {options.gsi_lag_min_ms, options.gsi_lag_max_ms, &clock, options.gsi_paused});
  }
  if (options.stale_reads_max_ms > 0) {  // --stale-reads-ms: eventually consistent reads lag
    entry.items->KeepRecentStates({.min_ms = options.stale_reads_min_ms,
                                   .max_ms = options.stale_reads_max_ms,
                                   .clock = &clock});
  }
}

std::unique_ptr<TableEntry> Catalog::NewEntry(const TableDescription& table) {
  auto entry = std::make_unique<TableEntry>();
  entry->description = table;
  entry->items = std::make_shared<TableItems>(next_table_id++, &log);
  entry->items->CompareItemsBy(&SameItem);
  entry->key_shape = KeyShape::Of(table.key_schema, table.attribute_definitions);
  if (entry->key_shape.has_sort_key()) {
    const AttributeType partition_type = entry->key_shape.partition_type;
    // No hash of all keys beside the partitions: a point read probes the partition's hash and
    // searches its few slots (or its tree), about what a probe of a hash of every key costs, and
    // a million items take ~36 MB less.
    entry->items->UsePartitions(
        [partition_type](std::string_view key) {
          return PartitionPrefixLength(key, partition_type);
        },
        false);
  }
  size_t slots = 0;  // slots are stable for a table's life, so a restored one may have gaps
  for (const IndexDescription& index : table.indexes) slots = std::max(slots, index.slot + 1);
  // Built even without indexes: reads of the table take its key from here.
  auto indexes = std::make_shared<const TableIndexes>(table);
  if (!table.indexes.empty()) {
    entry->items->SetIndexes(
        slots,
        [indexes](std::string_view key, std::string_view blob, uint32_t size,
                  WholeItems whole_items, IndexEntries& entries) {
          indexes->EntriesInto(key, blob, size, whole_items, entries);
        },
        [indexes](size_t slot, std::string_view key) {
          return indexes->PartitionLength(slot, key);
        });
    std::vector<size_t> local_slots;
    for (const IndexDescription& index : table.indexes) {
      if (!index.is_global) local_slots.push_back(index.slot);
    }
    if (!local_slots.empty()) {
      // A replay restores what was written whatever the limit is now (Store::Open sets it after).
      entry->items->TrackItemCollections(
          replaying ? std::numeric_limits<int64_t>::max() : options.item_collection_limit_bytes,
          std::move(local_slots));
    }
  }
  // A replay builds the indexes once, after the log (TableItems::DeferIndexes), and has no past
  // to read; Store::Open starts the lag and the history after it.
  if (replaying) {
    entry->items->DeferIndexes();
  } else {
    StartEventualConsistency(*entry);
  }
  entry->indexes = std::move(indexes);
  entry->next_index_slot = slots;
  // Before the first write: the vectors see every change, the log's replay included.
  SyncVectorsLocked(*entry);
  if (options.enforce_throughput) {
    entry->throughput = std::make_shared<TableThroughput>();
    entry->throughput->Configure(entry->description, clock.NowMs());
  }
  return entry;
}

}  // namespace ddbd
