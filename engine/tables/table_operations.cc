#include "engine/tables/table_operations.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "engine/catalog/identifiers.h"
#include "engine/catalog/index_updates.h"
#include "engine/catalog/setting_rules.h"
#include "engine/catalog/table_validation.h"
#include "engine/catalog/vector_index_updates.h"

namespace ddbd {
namespace {

std::string InUseMessage(TableStatus status, std::string_view table_name) {
  const char* what = status == TableStatus::kCreating   ? "being created"
                     : status == TableStatus::kDeleting ? "being deleted"
                                                        : "being updated";
  return "Attempt to change a resource which is still in use: Table is " + std::string(what) +
         ": " + std::string(table_name);
}

// UpdateTable's answer shows a ceiling the call removed as -1 (DescribeTable then leaves it out),
// as measured against DynamoDB.
void EchoRemovedCeilings(const UpdateTableArgs& args, TableDescription& answer) {
  if (!args.on_demand_throughput) return;
  const OnDemandThroughput& requested = *args.on_demand_throughput;
  if (requested.max_read_request_units == -1) {
    answer.on_demand_throughput.max_read_request_units = -1;
  }
  if (requested.max_write_request_units == -1) {
    answer.on_demand_throughput.max_write_request_units = -1;
  }
}

}  // namespace

Result<TableOutcome> CreateTable(Catalog& catalog, const CreateTableArgs& args) {
  if (Status valid = ValidateCreateTable(args); !valid.ok()) return valid.error();

  const int64_t now_ms = catalog.clock.NowMs();
  TableDescription table;
  table.table_name = args.table_name;
  table.table_id = NewTableId();
  table.table_arn = catalog.TableArn(args.table_name);
  table.creation_date_time_ms = now_ms;
  table.attribute_definitions = args.attribute_definitions;
  table.key_schema = args.key_schema;
  table.billing_mode = args.billing_mode.value_or(BillingMode::kProvisioned);
  table.billing_mode_described = args.billing_mode.has_value();
  if (table.billing_mode == BillingMode::kPayPerRequest) {
    table.last_update_to_pay_per_request_ms = now_ms;
    if (args.on_demand_throughput) table.on_demand_throughput = *args.on_demand_throughput;
  } else {
    table.provisioned_throughput = *args.provisioned_throughput;
  }
  if (args.stream_specification && args.stream_specification->stream_enabled) {
    table.stream_specification = args.stream_specification;
    table.latest_stream_label = StreamLabel(now_ms);
  }
  if (args.sse_specification && args.sse_specification->enabled.value_or(false)) {
    table.sse_description = args.sse_specification;
  }
  if (args.table_class) {
    table.table_class = args.table_class;
    table.table_class_last_update_ms = now_ms;
  }
  table.deletion_protection_enabled = args.deletion_protection_enabled.value_or(false);
  table.settings_replication_mode = args.settings_replication_mode;
  if (args.warm_throughput) table.warm_throughput = CreatedWarmThroughput(args);
  table.tags = MergeTags({}, args.tags);
  if (Status tags = CheckTags(table.tags); !tags.ok()) return tags.error();
  if (args.resource_policy) {
    if (Status policy = CheckResourcePolicy(*args.resource_policy); !policy.ok()) {
      return policy.error();
    }
    table.resource_policies = {{table.table_arn, *args.resource_policy, std::to_string(now_ms)}};
  }
  const bool delayed = catalog.options.table_delay_ms > 0;
  table.table_status = delayed ? TableStatus::kCreating : TableStatus::kActive;
  if (args.restore) {  // CREATING until its items are in (RestoreInto)
    table.restore_summary = args.restore;
    table.restore_summary->restore_in_progress = true;
    table.table_status = TableStatus::kCreating;
  }
  table.replicas = args.replicas;  // a new replica of a global table (engine/api/replicas.h)
  if (args.importing) {  // CREATING until its import is done (engine/exports/import_jobs.h)
    table.import_in_progress = true;
    table.table_status = TableStatus::kCreating;
  }
  for (const auto* definitions : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
    for (const IndexDefinition& definition : *definitions) {
      IndexDescription index;
      index.definition = definition;
      index.is_global = definitions == &args.global_secondary_indexes;
      index.slot = table.indexes.size();
      if (index.is_global) {
        auto warm = CreatedIndexWarmThroughput(table.billing_mode, definition);
        if (!warm.ok()) return warm.error();  // ValidateCreateTable checked it
        index.warm_throughput = warm.value();
      }
      if (index.is_global && !index.definition.provisioned_throughput) {
        index.definition.provisioned_throughput = ProvisionedThroughput{0, 0};
      }
      table.indexes.push_back(std::move(index));
    }
  }
  for (const VectorIndexDefinition& definition : args.vector_indexes) {
    table.vector_indexes.push_back(VectorIndexDescription{definition, table.table_status});
  }
  std::unique_ptr<TableEntry> entry = catalog.NewEntry(table);
  entry->transition_done_ms = args.restore || args.importing
                                  ? std::numeric_limits<int64_t>::max()
                                  : now_ms + catalog.options.table_delay_ms;

  std::unique_lock lock(catalog.mutex);
  catalog.PurgeGoneLocked(now_ms);
  if (catalog.tables.contains(args.table_name)) {
    return Error::ResourceInUse("Table already exists: " + args.table_name);
  }
  CatalogChange change{
      CatalogChange::Kind::kCreateTable, args.table_name, std::move(entry), {}, 0, now_ms, {}};
  const Ticket ticket{catalog.CommitLocked(std::move(change))};
  // No items yet: the counts are 0.
  return TableOutcome(Catalog::Snapshot(*catalog.tables.find(args.table_name)->second, now_ms),
                      ticket);
}

Result<TableDescription> DescribeTable(const Catalog& catalog, std::string_view table_name) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::shared_lock lock(catalog.mutex);
  const TableEntry* entry = catalog.FindLocked(table_name, now_ms);
  if (entry == nullptr) return Error::TableResourceNotFound(table_name);
  TableDescription description = Catalog::Snapshot(*entry, now_ms);
  const std::shared_ptr<TableItems> items = entry->items;
  const std::shared_ptr<TableVectors> vectors = entry->vectors;
  lock.unlock();  // the counts may wait for a backfill of this table
  Catalog::FillCounts(*items, description);
  Catalog::FillVectorCounts(*items, vectors.get(), description);
  return description;
}

ListTablesResult ListTables(const Catalog& catalog, const ListTablesArgs& args) {
  const int64_t now_ms = catalog.clock.NowMs();
  ListTablesResult result;
  std::shared_lock lock(catalog.mutex);
  auto it = args.exclusive_start_table_name
                ? catalog.tables.upper_bound(*args.exclusive_start_table_name)
                : catalog.tables.begin();
  for (; it != catalog.tables.end(); ++it) {
    if (Catalog::IsGone(*it->second, now_ms)) continue;
    if (static_cast<int>(result.table_names.size()) == args.limit) {
      // A full page with more behind it: tell the caller where to resume.
      result.last_evaluated_table_name = result.table_names.back();
      break;
    }
    result.table_names.push_back(it->first);
  }
  return result;
}

Result<TableOutcome> UpdateTable(Catalog& catalog, const UpdateTableArgs& args) {
  const bool reindex = !args.global_secondary_index_updates.empty();
  int64_t now_ms = catalog.clock.NowMs();
  std::unique_lock lock(catalog.mutex);
  auto it = catalog.tables.find(args.table_name);
  // DynamoDB takes other UpdateTable calls once an added index is backfilling. An index change
  // here must wait for that backfill to finish with the items, but not with the catalog held,
  // which would hold up every table meanwhile: it waits without it, then starts over.
  while (reindex && it != catalog.tables.end() && it->second->items->backfilling()) {
    const std::shared_ptr<TableItems> busy = it->second->items;
    lock.unlock();
    busy->WaitForBackfill();
    now_ms = catalog.clock.NowMs();
    lock.lock();
    it = catalog.tables.find(args.table_name);
  }
  if (it == catalog.tables.end() || Catalog::IsGone(*it->second, now_ms)) {
    return Error::TableResourceNotFound(args.table_name);
  }
  TableEntry& entry = *it->second;
  TableDescription current = Catalog::Snapshot(entry, now_ms);
  if (Status during = CheckVectorIndexUpdatesDuringChange(args, current); !during.ok()) {
    return during.error();
  }
  // Past that check, a vector index under way here can only be a backfilling one being deleted.
  const bool vector_change_during_update =
      current.table_status == TableStatus::kUpdating && !args.vector_index_updates.empty() &&
      std::any_of(current.vector_indexes.begin(), current.vector_indexes.end(),
                  [](const VectorIndexDescription& index) {
                    return index.index_status == TableStatus::kCreating;
                  });
  if (current.table_status != TableStatus::kActive && !vector_change_during_update) {
    return Error::ResourceInUse(InUseMessage(current.table_status, args.table_name));
  }
  const BillingMode billing_mode_before = current.billing_mode;
  if (Status applied = ApplyTableUpdate(args, now_ms, current); !applied.ok()) {
    return applied.error();
  }
  const bool delayed = catalog.options.table_delay_ms > 0;
  const IndexUpdateContext context{now_ms, delayed, entry.next_index_slot, billing_mode_before};
  if (reindex) {
    if (Status applied = ApplyIndexUpdates(args, context, current); !applied.ok()) {
      return applied.error();
    }
  }
  if (Status applied = ApplyVectorIndexUpdates(args, context, current); !applied.ok()) {
    return applied.error();
  }
  current.table_status = delayed ? TableStatus::kUpdating : TableStatus::kActive;
  // A vector index added here is filled after the catalog is released (a large table's vectors
  // take seconds), before this call answers.
  std::vector<std::shared_ptr<TableVector>> vectors_to_fill;
  const Ticket ticket{catalog.CommitLocked({CatalogChange::Kind::kUpdateTable,
                                            args.table_name,
                                            nullptr,
                                            current,
                                            now_ms + catalog.options.table_delay_ms,
                                            now_ms,
                                            {},
                                            &vectors_to_fill})};
  current.latest_stream_label = entry.description.latest_stream_label;  // unique per stream
  // `entry` may be gone once the catalog is released; the items stay alive through this.
  const std::shared_ptr<TableItems> items = entry.items;
  const std::shared_ptr<TableVectors> vectors = entry.vectors;  // as this update left them
  if (reindex) {
    const IndexChange change = ReindexLocked(entry);
    current = Catalog::Snapshot(entry, now_ms);
    // A backfill reads every item (~2 s per million): it holds this table's items, and the
    // catalog only until their write lock is taken, so other tables are served meanwhile.
    items->ChangeIndexes(change.added, change.dropped, change.entries_of, change.partition_length,
                         [&lock] { lock.unlock(); });
  } else {
    lock.unlock();
  }
  for (const std::shared_ptr<TableVector>& index : vectors_to_fill) {
    Catalog::FillVectorIndex(*items, *index);
  }
  Catalog::FillCounts(*items, current);  // an added index, now full
  Catalog::FillVectorCounts(*items, vectors.get(), current);
  EchoRemovedCeilings(args, current);
  return TableOutcome(std::move(current), ticket);
}

Result<DeletedTable> DeleteTable(Catalog& catalog, std::string_view table_name) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::unique_lock lock(catalog.mutex);
  auto it = catalog.tables.find(table_name);
  if (it == catalog.tables.end() || Catalog::IsGone(*it->second, now_ms)) {
    return Error::TableResourceNotFound(table_name);
  }
  TableEntry& entry = *it->second;
  TableDescription current = Catalog::Snapshot(entry, now_ms);
  if (current.table_status == TableStatus::kCreating ||
      current.table_status == TableStatus::kDeleting) {
    return Error::ResourceInUse(InUseMessage(current.table_status, table_name));
  }
  if (Status changing = CheckDeleteDuringVectorIndexChange(current); !changing.ok()) {
    return changing.error();
  }
  if (current.deletion_protection_enabled) {
    return Error::Validation(
        "Resource cannot be deleted as it is currently protected against deletion. Disable "
        "deletion protection first.");
  }
  if (Status leaving = CheckReplicaDeletion(current, catalog.options.region, now_ms);
      !leaving.ok()) {
    return leaving.error();
  }
  current.table_status = TableStatus::kDeleting;
  const std::shared_ptr<TableItems> items = entry.items;
  const Ticket ticket{catalog.CommitLocked(
      {CatalogChange::Kind::kDeleteTable,
       std::string(table_name),
       nullptr,
       {},
       catalog.options.table_delay_ms > 0 ? now_ms + catalog.options.table_delay_ms : 0,
       now_ms,
       {}})};
  lock.unlock();  // the counts may wait for a backfill of this table
  Catalog::FillCounts(*items, current);
  return DeletedTable{TableOutcome(std::move(current), ticket), items, now_ms};
}

}  // namespace ddbd
