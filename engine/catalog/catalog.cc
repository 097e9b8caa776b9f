#include "engine/catalog/catalog.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "engine/catalog/identifiers.h"
#include "engine/persistence/journal.h"

namespace ddbd {

IndexChange ReindexLocked(TableEntry& entry) {
  auto indexes = std::make_shared<const TableIndexes>(entry.description);
  IndexChange change;
  change.entries_of = [indexes](std::string_view key, std::string_view blob, uint32_t size,
                                WholeItems whole_items, IndexEntries& entries) {
    indexes->EntriesInto(key, blob, size, whole_items, entries);
  };
  change.partition_length = [indexes](size_t slot, std::string_view key) {
    return indexes->PartitionLength(slot, key);
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

std::string Catalog::TableArn(std::string_view table_name) const {
  return "arn:aws:dynamodb:" + options.region + ":" + options.account_id + ":table/" +
         std::string(table_name);
}

std::vector<std::string> Catalog::TableNames() const {
  const int64_t now_ms = clock.NowMs();
  std::vector<std::string> names;
  std::shared_lock lock(mutex);
  for (const auto& [name, entry] : tables) {
    if (FindLocked(name, now_ms) != nullptr) names.push_back(name);
  }
  return names;
}

std::optional<TableDescription> Catalog::Describe(std::string_view table_name) const {
  const int64_t now_ms = clock.NowMs();
  std::shared_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) return std::nullopt;
  return Snapshot(*entry, now_ms);
}

Result<Ticket> Catalog::ChangeMetadata(const std::string& table_name,
                                       const std::function<Status(TableDescription&)>& change) {
  const int64_t now_ms = clock.NowMs();
  std::unique_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) {
    return Error::TableResourceNotFound(table_name);
  }
  CatalogChange changed;
  changed.kind = CatalogChange::Kind::kTableMetadata;
  changed.table_name = table_name;
  CopyTableMetadata(entry->description, changed.description);
  changed.now_ms = now_ms;
  if (Status made = change(changed.description); !made.ok()) return made.error();
  return Ticket{CommitLocked(std::move(changed))};
}

uint64_t Catalog::CommitLocked(CatalogChange change) {
  auto it = tables.find(change.table_name);
  switch (change.kind) {
    case CatalogChange::Kind::kCreateTable: {
      TableEntry& created = *change.created;
      tables.emplace(change.table_name, std::move(change.created));
      if (created.description.stream_specification) StartStreamLocked(created, change.now_ms);
      SyncFeedLocked(created, change.now_ms);
      SyncInsightsLocked(created);
      if (!replaying) SyncReplicasLocked(created);
      return journal ? journal->TableCreated(created.items->id(), created.description) : 0;
    }
    case CatalogChange::Kind::kUpdateTable: {
      const bool streamed = it->second->description.stream_specification.has_value();
      it->second->description = std::move(change.description);
      const bool streams_now = it->second->description.stream_specification.has_value();
      if (!streamed && streams_now) StartStreamLocked(*it->second, change.now_ms);
      if (streamed && !streams_now) StopStreamLocked(*it->second);
      SyncFeedLocked(*it->second, change.now_ms);
      SyncInsightsLocked(*it->second);  // an index deleted takes its counters
      it->second->transition_done_ms = change.transition_done_ms;
      SyncVectorsLocked(*it->second, change.vectors_to_fill);
      if (!replaying) SyncReplicasLocked(*it->second);
      // New capacities apply at once.
      if (it->second->throughput) {
        it->second->throughput->Configure(it->second->description, change.now_ms);
      }
      return journal ? journal->TableUpdated(it->second->items->id(), it->second->description) : 0;
    }
    case CatalogChange::Kind::kDeleteTable:
      StopStreamLocked(*it->second);
      CloseFeedLocked(*it->second, change.now_ms);
      if (it->second->replicas) it->second->items->StopObserving(it->second->replicas.get());
      it->second->replicas = nullptr;
      it->second->versions = nullptr;
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
      SyncFeedLocked(*it->second, change.now_ms);
      SyncInsightsLocked(*it->second);
      // Enabled now: the history restores to the moment recovery was enabled.
      if (!replaying) {
        SyncHistoryLocked(*it->second, it->second->description.point_in_time_recovery_since_ms);
        SyncReplicasLocked(*it->second);
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
  to.kinesis_destinations = from.kinesis_destinations;
  to.contributor_insights = from.contributor_insights;
  to.point_in_time_recovery_since_ms = from.point_in_time_recovery_since_ms;
  to.recovery_period_in_days = from.recovery_period_in_days;
  to.replicas = from.replicas;
  to.auto_scaling = from.auto_scaling;
  to.legacy_global_table_created_ms = from.legacy_global_table_created_ms;
}

void Catalog::SyncReplicasLocked(TableEntry& entry) {
  const std::vector<ReplicaDescription>& replicas = entry.description.replicas;
  // Only members being removed (or a witness, which has no table) beside this one: nothing to
  // replicate to, no versions to keep.
  const bool alone =
      std::none_of(replicas.begin(), replicas.end(), [this](const ReplicaDescription& replica) {
        return replica.region_name != options.region &&
               replica.status != ReplicaStatus::kDeleting && !replica.witness;
      });
  if (alone || !options.replication) {
    if (entry.replicas) entry.items->StopObserving(entry.replicas.get());
    entry.replicas = nullptr;
    entry.versions = nullptr;
    entry.strong = nullptr;
    return;
  }
  entry.strong = nullptr;
  if (replicas.front().strong) {
    auto strong = std::make_shared<StrongTable>();
    strong->link = options.replication.get();
    strong->region = options.region;
    strong->members.table_name = entry.description.table_name;
    for (const ReplicaDescription& replica : replicas) {
      if (replica.region_name == options.region || replica.status == ReplicaStatus::kDeleting) {
        continue;
      }
      if (replica.witness) {
        strong->members.witness = replica.region_name;
      } else {
        strong->members.replicas.push_back(replica.region_name);
      }
    }
    entry.strong = std::move(strong);
  }
  if (!entry.replicas) {
    // Versions the log kept, if it was replayed; else none yet.
    if (!entry.versions) entry.versions = std::make_shared<ReplicaVersions>();
    entry.replicas = std::make_shared<ReplicaLog>(entry.description.table_name, options.region,
                                                  *options.replication, clock, entry.versions);
    entry.items->Observe(entry.replicas, {});
  }
  // A replica still being copied to receives this table's changes once its copy is queued
  // (ReplicaLog::CopyTo), not before.
  std::vector<std::string> targets;
  std::vector<std::string> sourced;
  const std::vector<std::string> before = entry.replicas->targets();
  for (const ReplicaDescription& replica : replicas) {
    // A replica being removed receives nothing more; a witness keeps no items.
    if (replica.region_name == options.region || replica.status == ReplicaStatus::kDeleting ||
        replica.witness) {
      continue;
    }
    const bool mine = replica.source_region == options.region;
    const std::string address = MemberAddress(replica);  // its region, or account's and region
    const bool copying = replica.status == ReplicaStatus::kCreating && mine &&
                         std::find(before.begin(), before.end(), address) == before.end();
    if (!copying) targets.push_back(address);
    // Passing other regions' changes on covers a copy taken while they travelled; a STRONG
    // table's members are made at once, empty, and each write reaches them all directly.
    if (mine && !copying && !entry.strong) sourced.push_back(address);
  }
  entry.replicas->SetTargets(std::move(targets), std::move(sourced));
}

TableStream::Settings Catalog::StreamSettings() const {
  TableStream::Settings settings;
  settings.rollover_ms = options.stream_shard_rollover_ms;
  settings.max_bytes = options.stream_max_bytes;
  return settings;
}

void Catalog::StartStreamLocked(TableEntry& entry, int64_t now_ms) {
  TableDescription& table = entry.description;
  if (replaying) {
    // The stream the table had, as a checkpoint kept it or anew under the label the table's
    // description names; it observes the table once the log is replayed.
    const std::string arn = table.table_arn + "/stream/" + table.latest_stream_label;
    if (std::shared_ptr<TableStream> replayed = streams.FindAny(arn)) {
      entry.stream = std::move(replayed);
      return;
    }
    now_ms = ParseStreamLabel(table.latest_stream_label).value_or(now_ms);
  } else {
    streams.ForgetExpired();
    // A label is a millisecond time; one re-enabled within the same millisecond takes the next.
    while (streams.Contains(table.table_arn + "/stream/" + StreamLabel(now_ms))) ++now_ms;
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
  streams.Add(entry.stream);
  if (!replaying) AttachStreamLocked(entry);
}

void Catalog::AttachStreamLocked(TableEntry& entry) {
  for (const std::shared_ptr<TableStream>& stream : {entry.stream, entry.kinesis_feed}) {
    if (!stream) continue;
    stream->SetSink(journal);
    entry.items->Observe(stream, {});
  }
}

void Catalog::SyncInsightsLocked(TableEntry& entry) {
  entry.insights = ContributorTraffic::Sync(entry.description, entry.insights);
}

void Catalog::SyncFeedLocked(TableEntry& entry, int64_t now_ms) {
  const TableDescription& table = entry.description;
  // Without a Kinesis endpoint nothing is delivered, so nothing is kept for it either.
  const KinesisDestination* enabled = nullptr;
  for (const KinesisDestination& destination : table.kinesis_destinations) {
    if (destination.enabled && destination.failure.empty() && options.kinesis) {
      enabled = &destination;
    }
  }
  const std::string label = enabled ? StreamLabel(enabled->enabled_ms) : "";
  const std::string arn = enabled ? table.table_arn + std::string(kKinesisFeedPart) + label : "";
  if (entry.kinesis_feed && entry.kinesis_feed->summary().stream_arn == arn) return;
  CloseFeedLocked(entry, now_ms);
  if (!enabled) return;
  if (replaying) {
    // The feed a checkpoint kept; else a new one the log's records are restored into.
    if (std::shared_ptr<TableStream> replayed = streams.FindAny(arn)) {
      entry.kinesis_feed = std::move(replayed);
      return;
    }
  }
  TableStream::Settings settings = StreamSettings();
  settings.summary = {arn, table.table_name, label};
  settings.view_type = StreamViewType::kNewAndOldImages;  // what DynamoDB sends to Kinesis
  settings.key_schema = table.key_schema;
  settings.creation_ms = enabled->enabled_ms;
  entry.kinesis_feed = std::make_shared<TableStream>(std::move(settings), clock);
  streams.Add(entry.kinesis_feed);
  if (!replaying) {
    entry.kinesis_feed->SetSink(journal);
    entry.items->Observe(entry.kinesis_feed, {});
  }
}

void Catalog::CloseFeedLocked(TableEntry& entry, int64_t now_ms) {
  if (!entry.kinesis_feed) return;
  entry.items->StopObserving(entry.kinesis_feed.get());
  if (journal) journal->StreamClosed(entry.kinesis_feed->summary().stream_arn, now_ms);
  entry.kinesis_feed->CloseAt(now_ms);
  entry.kinesis_feed.reset();
}

void Catalog::StopStreamLocked(TableEntry& entry) {
  if (!entry.stream) return;
  entry.items->StopObserving(entry.stream.get());
  const int64_t now_ms = clock.NowMs();
  if (journal) journal->StreamClosed(entry.stream->summary().stream_arn, now_ms);
  entry.stream->CloseAt(now_ms);
  entry.stream.reset();
}

void Catalog::FillCounts(const TableItems& items, TableDescription& description) {
  // DynamoDB refreshes these about every six hours; live figures are more useful locally.
  description.item_count = items.item_count();
  description.table_size_bytes = items.size_bytes();
  for (IndexDescription& index : description.indexes) {
    index.item_count = items.index_item_count(index.slot);
    index.index_size_bytes = items.index_size_bytes(index.slot);
  }
}

void Catalog::SyncVectorsLocked(TableEntry& entry,
                                std::vector<std::shared_ptr<TableVector>>* to_fill) {
  std::vector<std::shared_ptr<TableVector>> wanted;
  bool changed = false;
  for (const VectorIndexDescription& index : entry.description.vector_indexes) {
    if (index.index_status == TableStatus::kDeleting) continue;
    std::shared_ptr<TableVector> held =
        entry.vectors ? entry.vectors->Shared(index.definition.index_name) : nullptr;
    if (held == nullptr) {
      held =
          std::make_shared<TableVector>(index.definition, entry.description.attribute_definitions);
      if (to_fill != nullptr) {
        // Observing from now; the caller fills it from the items (FillVectorIndex).
        held->filled.store(false, std::memory_order_release);
        entry.items->Observe(held, {});
        to_fill->push_back(held);
      } else {
        // Observing first, then filled from the items as they are (TableItems::Observe):
        // searches find it only once it is full, as it is published after.
        TableVector* filling = held.get();
        entry.items->Observe(held, [filling](std::string_view key, std::string_view blob) {
          filling->Apply(key, blob);
        });
      }
      changed = true;
    }
    wanted.push_back(std::move(held));
  }
  if (entry.vectors != nullptr) {
    for (const std::shared_ptr<TableVector>& held : entry.vectors->list()) {
      if (std::find(wanted.begin(), wanted.end(), held) != wanted.end()) continue;
      entry.items->StopObserving(held.get());
      changed = true;
    }
  }
  if (!changed) return;
  entry.vectors = wanted.empty() ? nullptr : std::make_shared<TableVectors>(std::move(wanted));
}

void Catalog::FillVectorIndex(const TableItems& items, TableVector& index) {
  // Writers wait meanwhile (the read lock); what they wrote before is in the items walked, what
  // they write after reaches the index through the commit path.
  items.WalkAllThen(
      [&index](std::string_view key, std::string_view blob, uint32_t) {
        index.Apply(key, blob);
        return true;
      },
      [&index] { index.filled.store(true, std::memory_order_release); });
}

void Catalog::FillVectorCounts(const TableItems& items, const TableVectors* vectors,
                               TableDescription& description) {
  if (vectors == nullptr) return;
  items.WhileHeld([&] {
    for (VectorIndexDescription& index : description.vector_indexes) {
      const TableVector* held = vectors->Find(index.definition.index_name);
      if (held == nullptr) continue;
      index.item_count = static_cast<int64_t>(held->store.size());
      index.index_size_bytes = held->store.vector_bytes();
    }
  });
}

Result<VectorTable> Catalog::FindVectorTable(std::string_view table_name) const {
  const int64_t now_ms = clock.NowMs();
  std::shared_lock lock(mutex);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) {
    return Error::TableResourceNotFound(table_name);
  }
  return VectorTable{entry->items, entry->vectors, Snapshot(*entry, now_ms)};
}

TableDescription Catalog::Snapshot(const TableEntry& entry, int64_t now_ms) {
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
    std::erase_if(snapshot.vector_indexes, [](const VectorIndexDescription& index) {
      return index.index_status == TableStatus::kDeleting;
    });
    for (VectorIndexDescription& index : snapshot.vector_indexes) {
      index.index_status = TableStatus::kActive;
      index.backfilling = false;
    }
  } else {
    // A vector index added by UpdateTable allocates for the first half of the table's update,
    // then backfills (DynamoDB's phases: aws-semantics.md section 11).
    for (VectorIndexDescription& index : snapshot.vector_indexes) {
      if (index.index_status != TableStatus::kCreating || index.created_ms == 0) continue;
      index.backfilling =
          now_ms >= index.created_ms + (entry.transition_done_ms - index.created_ms) / 2;
    }
  }
  SettleReplicas(snapshot, now_ms);
  return snapshot;
}

void Catalog::SettleReplicas(TableDescription& table, int64_t now_ms) {
  if (table.replicas.empty()) return;
  std::erase_if(table.replicas, [now_ms](const ReplicaDescription& replica) {
    return replica.status == ReplicaStatus::kDeleting && now_ms >= replica.status_until_ms;
  });
  // The members' lists name every member: one left is the region describing it, a table of its
  // region alone again (a global table of version 2017.11.29 may have one replica).
  if (table.replicas.size() == 1 && table.legacy_global_table_created_ms == 0) {
    table.replicas.clear();
  }
  bool changing = false;
  for (ReplicaDescription& replica : table.replicas) {
    if (replica.status == ReplicaStatus::kUpdating && now_ms >= replica.status_until_ms) {
      replica.status = ReplicaStatus::kActive;
    }
    changing = changing || replica.status != ReplicaStatus::kActive;
  }
  if (changing && table.table_status == TableStatus::kActive) {
    table.table_status = TableStatus::kUpdating;
  }
}

bool Catalog::IsGone(const TableEntry& entry, int64_t now_ms) {
  return entry.description.table_status == TableStatus::kDeleting &&
         now_ms >= entry.transition_done_ms;
}

const TableEntry* Catalog::FindLocked(std::string_view table_name, int64_t now_ms) const {
  auto it = tables.find(table_name);
  if (it == tables.end() || IsGone(*it->second, now_ms)) return nullptr;
  return it->second.get();
}

void Catalog::PurgeGoneLocked(int64_t now_ms) {
  std::erase_if(tables, [now_ms](const auto& entry) { return IsGone(*entry.second, now_ms); });
}

int64_t Catalog::LiveBytesLocked() const {
  int64_t bytes = 0;
  for (const auto& [name, entry] : tables) bytes += entry->items->size_bytes();
  for (const auto& stream : streams.All()) bytes += static_cast<int64_t>(stream->bytes());
  return bytes;
}

std::vector<StreamState> Catalog::DumpStreamsLocked() const {
  absl::flat_hash_map<const TableStream*, const TableItems*> observed;
  for (const auto& [name, entry] : tables) {
    if (entry->stream) observed[entry->stream.get()] = entry->items.get();
    if (entry->kinesis_feed) observed[entry->kinesis_feed.get()] = entry->items.get();
  }
  std::vector<StreamState> dumped;
  for (const std::shared_ptr<TableStream>& stream : streams.All()) {
    auto table = observed.find(stream.get());
    if (table == observed.end()) {
      dumped.push_back(stream->Dump(true));  // closed: nothing is added any more
    } else {
      table->second->WhileHeld([&] { dumped.push_back(stream->Dump(true)); });
    }
  }
  return dumped;
}

int64_t Catalog::HistoryAgeMs(const TableDescription& table) const {
  const int64_t period_ms = table.recovery_period_in_days * kDayMs;
  return options.pitr_history_ms > 0 ? std::min(period_ms, options.pitr_history_ms) : period_ms;
}

void Catalog::SyncHistoryLocked(TableEntry& entry, int64_t start_ms) {
  const bool enabled = entry.description.point_in_time_recovery_since_ms != 0;
  if (enabled && !entry.history) {
    entry.history = std::make_shared<PointInTimeHistory>(
        clock, start_ms, options.pitr_history_bytes, HistoryAgeMs(entry.description));
    entry.items->Observe(entry.history, {});
  } else if (!enabled && entry.history) {
    entry.items->StopObserving(entry.history.get());
    entry.history.reset();
  } else if (entry.history) {
    entry.history->SetMaxAge(HistoryAgeMs(entry.description));
  }
}

void ReplicationStamp::Apply(Item& item) const {
  // Seconds with up to six decimals ("1554766902.780001" in DynamoDB; here to the millisecond),
  // in a number's canonical form: no trailing zeros.
  const int64_t now_ms = clock->NowMs();
  std::string time = std::to_string(now_ms / 1000);
  std::string fraction = std::to_string(1000 + now_ms % 1000).substr(1);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) time += "." + fraction;
  // Only those three: another attribute whose name starts "aws:rep:" is the caller's to keep.
  std::erase_if(item, [](const std::pair<std::string, AttributeValue>& attribute) {
    return attribute.first == "aws:rep:deleting" || attribute.first == "aws:rep:updatetime" ||
           attribute.first == "aws:rep:updateregion";
  });
  item.emplace_back("aws:rep:deleting", AttributeValue::Boolean(false));
  item.emplace_back("aws:rep:updatetime", AttributeValue::Number(std::move(time)));
  item.emplace_back("aws:rep:updateregion", AttributeValue::String(region));
}

}  // namespace ddbd
