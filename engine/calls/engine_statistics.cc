// Engine::Statistics: the figures each table and the store count, gathered for /metrics.
#include <memory>
#include <optional>
#include <shared_mutex>
#include <utility>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/insights/insight_reports.h"

namespace ddbd {

EngineStatistics Engine::Statistics() const {
  struct Gathered {
    TableStatistics figures;
    std::shared_ptr<TableItems> items;
    std::shared_ptr<CapacityUsage> usage;
    std::shared_ptr<TableStream> stream;
    std::vector<size_t> slots;  // of figures.indexes, in order
    std::shared_ptr<TableVectors> vectors;
    std::shared_ptr<const ContributorTraffic> insights;
    std::optional<TableDescription> described;  // only for insights' rule names
  };
  std::vector<Gathered> gathered;
  {
    const int64_t now_ms = clock_.NowMs();
    std::shared_lock lock(state_->catalog.mutex);
    gathered.reserve(state_->catalog.tables.size());
    for (const auto& [name, entry] : state_->catalog.tables) {
      if (entry->description.table_status == TableStatus::kDeleting) continue;
      Gathered& table = gathered.emplace_back();
      table.figures.name = name;
      table.items = entry->items;
      table.usage = entry->usage;
      table.stream = entry->stream;
      table.vectors = entry->vectors;
      if (entry->insights) {
        table.insights = entry->insights;
        table.described = entry->description;
      }
      for (const IndexDescription& index : Catalog::Snapshot(*entry, now_ms).indexes) {
        table.figures.indexes.push_back({index.definition.index_name, index.is_global, 0, 0});
        table.slots.push_back(index.slot);
      }
    }
  }
  // The counts take each table's items lock: after the catalog's is released (as DescribeTable).
  EngineStatistics statistics;
  statistics.tables.reserve(gathered.size());
  for (Gathered& table : gathered) {
    TableStatistics& figures = table.figures;
    figures.item_count = table.items->item_count();
    figures.size_bytes = table.items->size_bytes();
    const std::vector<uint64_t> pending = table.items->PendingIndexChanges();
    for (size_t i = 0; i < figures.indexes.size(); ++i) {
      figures.indexes[i].item_count = table.items->index_item_count(table.slots[i]);
      figures.indexes[i].size_bytes = table.items->index_size_bytes(table.slots[i]);
      if (table.slots[i] < pending.size())
        figures.indexes[i].pending_changes = pending[table.slots[i]];
    }
    if (table.vectors) {
      table.items->WhileHeld([&] {
        for (const auto& index : table.vectors->list()) {
          figures.vector_indexes.push_back({index->definition.index_name, false,
                                            static_cast<int64_t>(index->store.size()),
                                            index->store.vector_bytes()});
        }
      });
    }
    for (const CapacityUsage::Part& part : table.usage->Read()) {
      figures.consumed.push_back({part.index, part.read_units, part.write_units});
    }
    const TableItems::ChangeCounts changes = table.items->change_counts();
    figures.inserts = changes.inserts;
    figures.modifies = changes.modifies;
    figures.removes = changes.removes;
    figures.time_to_live_deletes = changes.time_to_live_removes;
    if (table.stream) {
      figures.stream_enabled = true;
      figures.stream_records = table.stream->records_added();
      figures.stream_bytes = table.stream->bytes();
    }
    statistics.tables.push_back(std::move(figures));
    if (table.insights) {
      for (ContributorInsightsReport& report :
           ReportTraffic(*table.described, *table.insights, clock_.NowMs(),
                         EngineStatistics::kMetricsContributors)) {
        statistics.contributor_insights.push_back(std::move(report));
      }
    }
  }
  if (state_->kinesis_delivery) statistics.kinesis = state_->kinesis_delivery->Figures();
  if (state_->stream_triggers) statistics.stream_triggers = state_->stream_triggers->Figures();
  if (const Journal* journal = state_->store.journal()) {
    StoreStatistics& store = statistics.store.emplace();
    store.log_written_bytes = journal->written_bytes();
    store.log_records = journal->written_records();
    store.failing = journal->failing();
    store.write_failures = journal->failures();
    store.log_bytes = store.log_written_bytes - state_->store.log_bytes_at_checkpoint();
    store.sync = journal->sync_latency().Read();
    store.checkpoints = state_->store.checkpoint_durations().Read();
  }
  return statistics;
}

}  // namespace ddbd
