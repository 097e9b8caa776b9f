#include "engine/engine.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <utility>

#include "engine/catalog/identifiers.h"
#include "engine/catalog/index_updates.h"
#include "engine/catalog/table_validation.h"
#include "engine/engine_state.h"
#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"
#include "engine/policies/resource_policies.h"
#include "engine/tags/tags.h"

namespace ddbd {
namespace {

std::string NotFoundMessage(std::string_view table_name) {
  return "Requested resource not found: Table: " + std::string(table_name) + " not found";
}

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

IndexChange ReindexLocked(TableEntry& entry) {
  auto indexes = std::make_shared<const TableIndexes>(entry.description);
  IndexChange change;
  change.entries_of = [indexes](std::string_view blob) {
    return indexes->EntriesFor(DecodeItem(blob));
  };
  for (const TableIndex& index : indexes->list()) {
    if (entry.indexes->Find(index.name()) == nullptr) {
      change.added.push_back(index.number);
      entry.next_index_slot = std::max(entry.next_index_slot, index.number + 1);
    }
  }
  for (const TableIndex& index : entry.indexes->list()) {
    if (indexes->Find(index.name()) == nullptr) change.dropped.push_back(index.number);
  }
  entry.indexes = std::move(indexes);
  return change;
}

Engine::Engine(EngineOptions options, const Clock& clock)
    : options_(std::move(options)),
      clock_(clock),
      state_(std::make_unique<State>(options_, clock_)) {
  if (options_.transaction_hold_ms > 0) state_->delayed = std::make_unique<DelayedTasks>();
  StartSweeper();
}

void Engine::StartSweeper() {
  if (options_.ttl_interval_ms <= 0 || state_->sweeper) return;
  // Slices of a few hundred deletes; a backlog is worked off slice after slice.
  constexpr size_t kSlice = 512;
  state_->sweeper =
      std::make_unique<PeriodicTask>(std::chrono::milliseconds(options_.ttl_interval_ms),
                                     [this] { return SweepExpiredItems(kSlice) == kSlice; });
}

Engine::~Engine() {
  state_->checkpointer.reset();
  state_->sweeper.reset();
  state_->delayed.reset();  // commits what is still held while the tables are all there
}

void Engine::Subscribe(CommitObserver* observer) { state_->log.Subscribe(observer); }

uint64_t Engine::State::CommitCatalogLocked(CatalogChange change) {
  auto it = tables.find(change.table_name);
  switch (change.kind) {
    case CatalogChange::Kind::kCreateTable: {
      TableEntry& created = *change.created;
      tables.emplace(change.table_name, std::move(change.created));
      if (created.description.stream_specification) StartStreamLocked(created, change.now_ms);
      return journal ? journal->TableCreated(created.items->id(), created.description) : 0;
    }
    case CatalogChange::Kind::kUpdateTable: {
      const bool streamed = it->second->description.stream_specification.has_value();
      it->second->description = std::move(change.description);
      const bool streams_now = it->second->description.stream_specification.has_value();
      if (!streamed && streams_now) StartStreamLocked(*it->second, change.now_ms);
      if (streamed && !streams_now) StopStreamLocked(*it->second);
      it->second->transition_done_ms = change.transition_done_ms;
      // New capacities apply at once.
      if (it->second->throughput) {
        it->second->throughput->Configure(it->second->description, change.now_ms);
      }
      return journal ? journal->TableUpdated(it->second->items->id(), it->second->description) : 0;
    }
    case CatalogChange::Kind::kDeleteTable:
      StopStreamLocked(*it->second);
      {
        const uint64_t ticket = journal ? journal->TableDeleted(it->second->items->id()) : 0;
        // A DELETING table is gone once its period ends (IsGone); without one it goes at once.
        if (change.transition_done_ms <= 0) {
          tables.erase(it);
          return ticket;
        }
        it->second->description.table_status = TableStatus::kDeleting;
        it->second->transition_done_ms = change.transition_done_ms;
        return ticket;
      }
    case CatalogChange::Kind::kTableMetadata:  // nothing else changes
      CopyTableMetadata(change.description, it->second->description);
      // Enabled now: the history restores to the moment recovery was enabled.
      if (!replaying) {
        SyncHistoryLocked(*it->second, it->second->description.point_in_time_recovery_since_ms);
      }
      return journal ? journal->TableUpdated(it->second->items->id(), it->second->description) : 0;
    case CatalogChange::Kind::kUpdateTimeToLive:
      it->second->description.time_to_live_attribute = change.description.time_to_live_attribute;
      it->second->description.time_to_live_updated_ms = change.now_ms;
      it->second->expiry = std::move(change.expiry);
      return journal ? journal->TableUpdated(it->second->items->id(), it->second->description) : 0;
  }
  return 0;
}

void CopyTableMetadata(const TableDescription& from, TableDescription& to) {
  to.tags = from.tags;
  to.resource_policies = from.resource_policies;
  to.point_in_time_recovery_since_ms = from.point_in_time_recovery_since_ms;
  to.recovery_period_in_days = from.recovery_period_in_days;
}

TableStream::Settings Engine::State::StreamSettings() const {
  TableStream::Settings settings;
  settings.rollover_ms = options.stream_shard_rollover_ms;
  settings.max_bytes = options.stream_max_bytes;
  return settings;
}

void Engine::State::StartStreamLocked(TableEntry& entry, int64_t now_ms) {
  TableDescription& table = entry.description;
  if (replaying) {
    // The stream the table had, as a checkpoint kept it or anew under the label the table's
    // description names; it observes the table once the log is replayed.
    const std::string arn = table.table_arn + "/stream/" + table.latest_stream_label;
    if (auto it = streams.find(arn); it != streams.end()) {
      entry.stream = it->second;
      return;
    }
    now_ms = ParseStreamLabel(table.latest_stream_label).value_or(now_ms);
  } else {
    std::erase_if(streams, [](const auto& stream) { return stream.second->Expired(); });
    // A label is a millisecond time; one re-enabled within the same millisecond takes the next.
    while (streams.contains(table.table_arn + "/stream/" + StreamLabel(now_ms))) ++now_ms;
    table.latest_stream_label = StreamLabel(now_ms);
  }
  TableStream::Settings settings = StreamSettings();
  settings.summary = {table.table_arn + "/stream/" + table.latest_stream_label, table.table_name,
                      table.latest_stream_label};
  settings.view_type =
      table.stream_specification->stream_view_type.value_or(StreamViewType::kNewAndOldImages);
  settings.key_schema = table.key_schema;
  settings.creation_ms = now_ms;
  entry.stream = std::make_shared<TableStream>(std::move(settings), clock);
  streams.emplace(entry.stream->summary().stream_arn, entry.stream);
  if (!replaying) AttachStreamLocked(entry);
}

void Engine::State::AttachStreamLocked(TableEntry& entry) {
  entry.stream->SetSink(journal.get());
  entry.items->Observe(entry.stream, {});
}

void Engine::State::StopStreamLocked(TableEntry& entry) {
  if (!entry.stream) return;
  entry.items->StopObserving(entry.stream.get());
  const int64_t now_ms = clock.NowMs();
  if (journal) journal->StreamClosed(entry.stream->summary().stream_arn, now_ms);
  entry.stream->CloseAt(now_ms);
  entry.stream.reset();
}

void Engine::State::FillCounts(const TableItems& items, TableDescription& description) {
  // DynamoDB refreshes these about every six hours; live figures are more useful locally.
  description.item_count = items.item_count();
  description.table_size_bytes = items.size_bytes();
  for (IndexDescription& index : description.indexes) {
    index.item_count = items.index_item_count(index.slot);
    index.index_size_bytes = items.index_size_bytes(index.slot);
  }
}

TableDescription Engine::State::Snapshot(const TableEntry& entry, int64_t now_ms) {
  TableDescription snapshot = entry.description;
  if (snapshot.table_status != TableStatus::kDeleting && now_ms >= entry.transition_done_ms) {
    snapshot.table_status = TableStatus::kActive;
    snapshot.restore_summary.reset();  // described only while a restored table is CREATING
    // Index changes finish with the table's update.
    std::erase_if(snapshot.indexes, [](const IndexDescription& index) {
      return index.index_status == TableStatus::kDeleting;
    });
    for (IndexDescription& index : snapshot.indexes) {
      index.index_status = TableStatus::kActive;
      index.backfilling = false;
    }
  }
  return snapshot;
}

bool Engine::State::IsGone(const TableEntry& entry, int64_t now_ms) {
  return entry.description.table_status == TableStatus::kDeleting &&
         now_ms >= entry.transition_done_ms;
}

const TableEntry* Engine::State::FindLocked(std::string_view table_name, int64_t now_ms) const {
  auto it = tables.find(table_name);
  if (it == tables.end() || State::IsGone(*it->second, now_ms)) return nullptr;
  return it->second.get();
}

void Engine::State::PurgeGoneLocked(int64_t now_ms) {
  std::erase_if(tables, [now_ms](const auto& entry) { return IsGone(*entry.second, now_ms); });
}

std::unique_ptr<TableEntry> Engine::NewEntry(const TableDescription& table) const {
  auto entry = std::make_unique<TableEntry>();
  entry->description = table;
  entry->items = std::make_shared<TableItems>(state_->next_table_id++, &state_->log);
  entry->key_shape = KeyShape::Of(table);
  if (entry->key_shape.has_sort_key()) {
    const AttributeType partition_type = entry->key_shape.partition_type;
    entry->items->UsePartitions([partition_type](std::string_view key) {
      return PartitionPrefixLength(key, partition_type);
    });
  }
  size_t slots = 0;  // slots are stable for a table's life, so a restored one may have gaps
  for (const IndexDescription& index : table.indexes) slots = std::max(slots, index.slot + 1);
  // Built even without indexes: reads of the table take its key from here.
  auto indexes = std::make_shared<const TableIndexes>(table);
  if (!table.indexes.empty()) {
    entry->items->SetIndexes(
        slots, [indexes](std::string_view blob) { return indexes->EntriesFor(DecodeItem(blob)); });
    std::vector<size_t> local_slots;
    for (const IndexDescription& index : table.indexes) {
      if (!index.is_global) local_slots.push_back(index.slot);
    }
    if (!local_slots.empty()) {
      // A replay restores what was written whatever the limit is now (OpenStore sets it after).
      entry->items->TrackItemCollections(state_->replaying ? std::numeric_limits<int64_t>::max()
                                                           : options_.item_collection_limit_bytes,
                                         std::move(local_slots));
    }
  }
  entry->indexes = std::move(indexes);
  entry->next_index_slot = slots;
  if (options_.enforce_throughput) {
    entry->throughput = std::make_shared<TableThroughput>();
    entry->throughput->Configure(entry->description, clock_.NowMs());
  }
  return entry;
}

Result<TableOutcome> Engine::CreateTable(const CreateTableArgs& args) {
  if (Status valid = ValidateCreateTable(args); !valid.ok()) return valid.error();

  const int64_t now_ms = clock_.NowMs();
  TableDescription table;
  table.table_name = args.table_name;
  table.table_id = NewTableId();
  table.table_arn = TableArn(args.table_name);
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
  if (args.warm_throughput) table.warm_throughput = CreatedWarmThroughput(args);
  table.tags = MergeTags({}, args.tags);
  if (Status tags = CheckTags(table.tags); !tags.ok()) return tags.error();
  if (args.resource_policy) {
    if (Status policy = CheckResourcePolicy(*args.resource_policy); !policy.ok()) {
      return policy.error();
    }
    table.resource_policies = {{table.table_arn, *args.resource_policy, std::to_string(now_ms)}};
  }
  const bool delayed = options_.table_delay_ms > 0;
  table.table_status = delayed ? TableStatus::kCreating : TableStatus::kActive;
  if (args.restore) {  // CREATING until its items are in (RestoreInto)
    table.restore_summary = args.restore;
    table.restore_summary->restore_in_progress = true;
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
  std::unique_ptr<TableEntry> entry = NewEntry(table);
  entry->transition_done_ms =
      args.restore ? std::numeric_limits<int64_t>::max() : now_ms + options_.table_delay_ms;

  std::unique_lock lock(state_->mutex);
  state_->PurgeGoneLocked(now_ms);
  if (state_->tables.contains(args.table_name)) {
    return Error::ResourceInUse("Table already exists: " + args.table_name);
  }
  CatalogChange change{
      CatalogChange::Kind::kCreateTable, args.table_name, std::move(entry), {}, 0, now_ms, {}};
  const Ticket ticket{state_->CommitCatalogLocked(std::move(change))};
  // No items yet: the counts are 0.
  return TableOutcome(State::Snapshot(*state_->tables.find(args.table_name)->second, now_ms),
                      ticket);
}

Result<TableDescription> Engine::DescribeTable(std::string_view table_name) const {
  const int64_t now_ms = clock_.NowMs();
  std::shared_lock lock(state_->mutex);
  const TableEntry* entry = state_->FindLocked(table_name, now_ms);
  if (entry == nullptr) return Error::ResourceNotFound(NotFoundMessage(table_name));
  TableDescription description = State::Snapshot(*entry, now_ms);
  const std::shared_ptr<TableItems> items = entry->items;
  lock.unlock();  // the counts may wait for a backfill of this table
  State::FillCounts(*items, description);
  return description;
}

ListTablesResult Engine::ListTables(const ListTablesArgs& args) const {
  const int64_t now_ms = clock_.NowMs();
  ListTablesResult result;
  std::shared_lock lock(state_->mutex);
  auto it = args.exclusive_start_table_name
                ? state_->tables.upper_bound(*args.exclusive_start_table_name)
                : state_->tables.begin();
  for (; it != state_->tables.end(); ++it) {
    if (State::IsGone(*it->second, now_ms)) continue;
    if (static_cast<int>(result.table_names.size()) == args.limit) {
      // A full page with more behind it: tell the caller where to resume.
      result.last_evaluated_table_name = result.table_names.back();
      break;
    }
    result.table_names.push_back(it->first);
  }
  return result;
}

Result<TableOutcome> Engine::UpdateTable(const UpdateTableArgs& args) {
  const bool reindex = !args.global_secondary_index_updates.empty();
  int64_t now_ms = clock_.NowMs();
  std::unique_lock lock(state_->mutex);
  auto it = state_->tables.find(args.table_name);
  // DynamoDB takes other UpdateTable calls once an added index is backfilling. An index change
  // here must wait for that backfill to finish with the items, but not with the catalog held,
  // which would hold up every table meanwhile: it waits without it, then starts over.
  while (reindex && it != state_->tables.end() && it->second->items->backfilling()) {
    const std::shared_ptr<TableItems> busy = it->second->items;
    lock.unlock();
    busy->WaitForBackfill();
    now_ms = clock_.NowMs();
    lock.lock();
    it = state_->tables.find(args.table_name);
  }
  if (it == state_->tables.end() || State::IsGone(*it->second, now_ms)) {
    return Error::ResourceNotFound(NotFoundMessage(args.table_name));
  }
  TableEntry& entry = *it->second;
  TableDescription current = State::Snapshot(entry, now_ms);
  if (current.table_status != TableStatus::kActive) {
    return Error::ResourceInUse(InUseMessage(current.table_status, args.table_name));
  }
  const BillingMode billing_mode_before = current.billing_mode;
  if (Status applied = ApplyTableUpdate(args, now_ms, current); !applied.ok()) {
    return applied.error();
  }
  const bool delayed = options_.table_delay_ms > 0;
  if (reindex) {
    const IndexUpdateContext context{now_ms, delayed, entry.next_index_slot, billing_mode_before};
    if (Status applied = ApplyIndexUpdates(args, context, current); !applied.ok()) {
      return applied.error();
    }
  }
  current.table_status = delayed ? TableStatus::kUpdating : TableStatus::kActive;
  const Ticket ticket{state_->CommitCatalogLocked({CatalogChange::Kind::kUpdateTable,
                                                   args.table_name,
                                                   nullptr,
                                                   current,
                                                   now_ms + options_.table_delay_ms,
                                                   now_ms,
                                                   {}})};
  current.latest_stream_label = entry.description.latest_stream_label;  // unique per stream
  // `entry` may be gone once the catalog is released; the items stay alive through this.
  const std::shared_ptr<TableItems> items = entry.items;
  if (reindex) {
    const IndexChange change = ReindexLocked(entry);
    current = State::Snapshot(entry, now_ms);
    // A backfill reads every item (~2 s per million): it holds this table's items, and the
    // catalog only until their write lock is taken, so other tables are served meanwhile.
    items->ChangeIndexes(change.added, change.dropped, change.entries_of,
                         [&lock] { lock.unlock(); });
  } else {
    lock.unlock();
  }
  State::FillCounts(*items, current);  // an added index, now full
  EchoRemovedCeilings(args, current);
  return TableOutcome(std::move(current), ticket);
}

Result<TableOutcome> Engine::DeleteTable(std::string_view table_name) {
  const int64_t now_ms = clock_.NowMs();
  std::unique_lock lock(state_->mutex);
  auto it = state_->tables.find(table_name);
  if (it == state_->tables.end() || State::IsGone(*it->second, now_ms)) {
    return Error::ResourceNotFound(NotFoundMessage(table_name));
  }
  TableEntry& entry = *it->second;
  TableDescription current = State::Snapshot(entry, now_ms);
  if (current.table_status == TableStatus::kCreating ||
      current.table_status == TableStatus::kDeleting) {
    return Error::ResourceInUse(InUseMessage(current.table_status, table_name));
  }
  if (current.deletion_protection_enabled) {
    return Error::Validation(
        "Resource cannot be deleted as it is currently protected against deletion. Disable "
        "deletion protection first.");
  }
  current.table_status = TableStatus::kDeleting;
  const std::shared_ptr<TableItems> items = entry.items;
  const Ticket ticket{state_->CommitCatalogLocked(
      {CatalogChange::Kind::kDeleteTable,
       std::string(table_name),
       nullptr,
       {},
       options_.table_delay_ms > 0 ? now_ms + options_.table_delay_ms : 0,
       now_ms,
       {}})};
  lock.unlock();  // the counts may wait for a backfill of this table
  State::FillCounts(*items, current);
  if (current.point_in_time_recovery_since_ms != 0) {
    KeepDeletedTableBackup(current, *items, now_ms);
  }
  return TableOutcome(std::move(current), ticket);
}

}  // namespace ddbd
