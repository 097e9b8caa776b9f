#include "engine/replicas/replica_updates.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "engine/api/replication_link.h"
#include "engine/catalog/identifiers.h"
#include "engine/catalog/setting_rules.h"
#include "engine/model/item_codec.h"
#include "engine/replicas/replica_auto_scaling.h"
#include "engine/replicas/strong_consistency.h"

namespace ddbd {
namespace {

// The texts below are DynamoDB's as recorded against it (ack-api-quirks, DDB-TABLE-223, -224,
// -227, -266, -267; ../shared/aws-semantics.md "Global tables").
constexpr char kNoActions[] =
    "There are no actions specified in the Replica Update Action of the request.";
constexpr char kSeveralTypes[] =
    "Update table operation with more than one type of replica actions not allowed.";
constexpr char kSeveralCreatesOrDeletes[] =
    "Update table operation with more than one create or delete replica actions not allowed";
constexpr char kLocalRegion[] =
    "Cannot add or delete the local region through ReplicaUpdates. Use CreateTable, DeleteTable, "
    "or UpdateTable as required.";
constexpr char kInUse[] = "The resource which you are attempting to change is in use.";

bool HasOverride(const ReplicaDescription& replica) {
  return replica.kms_master_key_id || replica.read_capacity_units_override ||
         replica.max_read_request_units_override || replica.table_class_override ||
         !replica.index_overrides.empty();
}

const ReplicaDescription* Member(const std::vector<ReplicaDescription>& replicas,
                                 const std::string& region) {
  for (const ReplicaDescription& replica : replicas) {
    if (replica.region_name == region) return &replica;
  }
  return nullptr;
}

// The request's shape, checked before any state, as DynamoDB does. `strong_table`: the table is
// a global table with multi-region strong consistency, whose members leave two at a time.
Status CheckShape(const UpdateTableArgs& args, const std::string& here, bool strong_table) {
  if (args.other_updates_given) {
    return Error::Validation(
        "One or more parameter values were invalid: ReplicaUpdates cannot be combined with other "
        "updates of the table");
  }
  int creates_or_deletes = 0;
  std::vector<std::string> created;
  for (const ReplicaUpdate& update : args.replica_updates) {
    if (update.actions_given == 0) return Error::Validation(kNoActions);
    if (update.actions_given > 1) return Error::Validation(kSeveralTypes);
    if (update.action == ReplicaUpdate::Action::kUpdate && !HasOverride(update.replica)) {
      return Error::Validation(kNoActions);
    }
    if (update.action == ReplicaUpdate::Action::kUpdate) continue;
    // Two Creates of one region are one (AWS-recorded).
    const std::string& region = update.replica.region_name;
    if (update.action == ReplicaUpdate::Action::kCreate) {
      if (std::find(created.begin(), created.end(), region) != created.end()) continue;
      created.push_back(region);
    }
    ++creates_or_deletes;
  }
  // An MRSC table is made with its two other regions at once (strong_consistency.h).
  const bool strong = args.multi_region_consistency == MultiRegionConsistency::kStrong;
  if (creates_or_deletes > 1 && !strong && !strong_table) {
    return Error::Validation(kSeveralCreatesOrDeletes);
  }
  for (const ReplicaUpdate& update : args.replica_updates) {
    if (update.replica.region_name == here) return Error::Validation(kLocalRegion);
  }
  for (const WitnessUpdate& update : args.witness_updates) {
    if (update.region_name == here) return Error::Validation(kLocalRegion);
  }
  return CheckStrongShape(args, here);
}

// The set a table of one region starts from: itself.
std::vector<ReplicaDescription> CurrentSet(const TableDescription& table, const std::string& here) {
  if (!table.replicas.empty()) return table.replicas;
  ReplicaDescription self;
  self.region_name = here;
  self.created_ms = table.creation_date_time_ms;
  return {self};
}

}  // namespace

Result<TableOutcome> CommitReplicaSet(Catalog& catalog, const std::string& table_name,
                                      std::vector<ReplicaDescription> replicas,
                                      std::shared_ptr<TableItems>* items,
                                      std::shared_ptr<ReplicaLog>* log) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::unique_lock lock(catalog.mutex);
  auto it = catalog.tables.find(table_name);
  if (it == catalog.tables.end() || Catalog::IsGone(*it->second, now_ms)) {
    return Error::TableResourceNotFound(table_name);
  }
  TableEntry& entry = *it->second;
  TableDescription table = Catalog::Snapshot(entry, now_ms);
  if (!replicas.empty() && !table.stream_specification) {
    table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    table.latest_stream_label = StreamLabel(now_ms);
  }
  if (replicas.size() == 1 && replicas.front().region_name == catalog.options.region &&
      table.legacy_global_table_created_ms == 0) {
    replicas.clear();  // no other member: a table of this region alone
  }
  table.replicas = std::move(replicas);
  const Ticket ticket{catalog.CommitLocked({CatalogChange::Kind::kUpdateTable,
                                            table_name,
                                            nullptr,
                                            table,
                                            entry.transition_done_ms,
                                            now_ms,
                                            {}})};
  table.latest_stream_label = entry.description.latest_stream_label;
  if (items != nullptr) *items = entry.items;
  if (log != nullptr) *log = entry.replicas;
  const std::shared_ptr<TableItems> counted = entry.items;
  lock.unlock();
  Catalog::SettleReplicas(table, now_ms);  // as DescribeTable would show it now
  Catalog::FillCounts(*counted, table);
  return TableOutcome(std::move(table), ticket);
}

Error ReplicaSetInUse() { return Error::ResourceInUse(kInUse); }

Status CheckReplicasSettled(const TableDescription& table) {
  const bool settled = std::all_of(
      table.replicas.begin(), table.replicas.end(),
      [](const ReplicaDescription& replica) { return replica.status == ReplicaStatus::kActive; });
  if (table.table_status != TableStatus::kActive || !settled) return ReplicaSetInUse();
  return Ok{};
}

std::string NotMembersMessage(const std::vector<std::string>& regions) {
  std::string list;
  for (const std::string& region : regions) list += (list.empty() ? "" : ", ") + region;
  return "Update global table operation failed because one or more replicas were not part of the "
         "global table. Please retry the request without these replicas: [" +
         list + "].";
}

Result<TableOutcome> UpdateReplicas(Catalog& catalog, const UpdateTableArgs& args) {
  const std::string& here = catalog.options.region;
  bool strong_table = false;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(args.table_name, catalog.clock.NowMs());
    strong_table = entry != nullptr && !entry->description.replicas.empty() &&
                   entry->description.replicas.front().strong;
  }
  if (Status shape = CheckShape(args, here, strong_table); !shape.ok()) return shape.error();
  ReplicationLink* link = catalog.options.replication.get();
  if (link == nullptr) {
    return Error::Validation("Global tables need a database per region: this server keeps one");
  }
  if (std::string why = link->Unavailable(); !why.empty()) return Error::Validation(why);

  const int64_t now_ms = catalog.clock.NowMs();
  TableDescription table;
  std::shared_ptr<TableItems> table_items;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(args.table_name, now_ms);
    if (entry == nullptr) {
      return Error::TableResourceNotFound(args.table_name);
    }
    table = Catalog::Snapshot(*entry, now_ms);
    table_items = entry->items;
  }
  if (table.legacy_global_table_created_ms != 0) {
    return Error::Validation(
        "One or more parameter values were invalid: the table is a replica of a global table of "
        "version 2017.11.29: UpdateGlobalTable changes its replicas");
  }
  if (MultiAccount(table.replicas)) {
    // Each account makes and removes its own replica; settings are kept alike, not overridden.
    return Error::Validation(
        "One or more parameter values were invalid: the table is a replica of a multi-account "
        "global table: a replica joins by CreateTable with GlobalTableSourceArn in its own "
        "account and leaves by DeleteTable there");
  }
  if (Status settled = CheckReplicasSettled(table); !settled.ok()) return settled.error();
  if (TouchesStrongConsistency(args, table)) {
    Catalog::FillCounts(*table_items, table);
    if (Status state = CheckStrongState(args, table, table.item_count); !state.ok()) {
      return state.error();
    }
  }
  std::vector<ReplicaDescription> replicas = CurrentSet(table, here);
  if (args.multi_region_consistency == MultiRegionConsistency::kStrong) {
    // Every member is STRONG, the witness among them, before the replicas are made: each new
    // replica's table is created with the set as it is then.
    for (ReplicaDescription& replica : replicas) replica.strong = true;
    for (ReplicaDescription& witness : WitnessesCreated(args, here, now_ms)) {
      replicas.push_back(std::move(witness));
    }
  }
  std::vector<std::string> strangers;
  for (const ReplicaUpdate& update : args.replica_updates) {
    const std::string& region = update.replica.region_name;
    if (update.action != ReplicaUpdate::Action::kCreate && Member(replicas, region) == nullptr &&
        std::find(strangers.begin(), strangers.end(), region) == strangers.end()) {
      strangers.push_back(region);
    }
  }
  if (!strangers.empty()) return Error::Validation(NotMembersMessage(strangers));

  for (const ReplicaUpdate& update : args.replica_updates) {
    const std::string& region = update.replica.region_name;
    switch (update.action) {
      case ReplicaUpdate::Action::kCreate: {
        if (Member(replicas, region) != nullptr) {
          return Error::Validation(ReplicaExistsMessage(args.table_name));
        }
        // A global table's writes are on-demand or auto scaled, so that every region can take
        // the others' (AWS: "Best practices and requirements for managing global tables"; the
        // text as AWS answers, quoted in terraform-aws-modules/terraform-aws-dynamodb-table#109).
        if (!WriteCapacityScales(table)) {
          return Error::Validation(
              "Table write capacity should either be Pay-Per-Request or AutoScaled.");
        }
        ReplicaDescription added = update.replica;
        added.strong = args.multi_region_consistency == MultiRegionConsistency::kStrong;
        added.status = ReplicaStatus::kCreating;
        added.source_region = here;
        added.created_ms = now_ms;
        replicas.push_back(std::move(added));
        TableDescription copied = table;
        if (!copied.stream_specification) {
          copied.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
        }
        if (Status made = link->CreateReplica(region, copied, replicas); !made.ok()) {
          return made.error();
        }
        break;
      }
      case ReplicaUpdate::Action::kUpdate: {
        const ReplicaDescription& given = update.replica;
        // AWS-recorded (DDB-TABLE-223): an Update may not give an on-demand table provisioned
        // reads (a Create may).
        if (given.read_capacity_units_override &&
            table.billing_mode == BillingMode::kPayPerRequest) {
          return Error::Validation(
              "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode "
              "is PAY_PER_REQUEST");
        }
        for (ReplicaDescription& replica : replicas) {
          if (replica.region_name != region) continue;
          // UPDATING for --table-delay-ms (Catalog::SettleReplicas ends it).
          replica.status = ReplicaStatus::kUpdating;
          replica.status_until_ms = now_ms + catalog.options.table_delay_ms;
          if (given.kms_master_key_id) replica.kms_master_key_id = given.kms_master_key_id;
          // The table's own figure clears an override: the replica inherits it again
          // (AWS-recorded, DDB-TABLE-250).
          if (given.read_capacity_units_override) {
            replica.read_capacity_units_override = given.read_capacity_units_override;
            if (*given.read_capacity_units_override ==
                table.provisioned_throughput.read_capacity_units) {
              replica.read_capacity_units_override.reset();
            }
          }
          if (given.max_read_request_units_override) {
            replica.max_read_request_units_override = given.max_read_request_units_override;
            if (given.max_read_request_units_override ==
                table.on_demand_throughput.max_read_request_units) {
              replica.max_read_request_units_override.reset();
            }
          }
          if (given.table_class_override) replica.table_class_override = given.table_class_override;
          // Per index: one named takes what is given, the others keep theirs (DDB-TABLE-252).
          for (const ReplicaIndexOverride& index : given.index_overrides) {
            auto it = std::find_if(replica.index_overrides.begin(), replica.index_overrides.end(),
                                   [&](const ReplicaIndexOverride& had) {
                                     return had.index_name == index.index_name;
                                   });
            if (it == replica.index_overrides.end()) {
              replica.index_overrides.push_back(index);
            } else {
              *it = index;
            }
          }
        }
        break;
      }
      case ReplicaUpdate::Action::kDelete: {
        if (Status allowed = CheckReplicaDeletion(table, region, now_ms); !allowed.ok()) {
          return allowed.error();
        }
        if (Status deleted = link->DeleteReplica(region, args.table_name); !deleted.ok()) {
          return deleted.error();
        }
        // Listed DELETING for --table-delay-ms (Catalog::SettleReplicas then drops it), and
        // sent nothing more meanwhile (Catalog::SyncReplicasLocked).
        for (ReplicaDescription& replica : replicas) {
          if (replica.region_name != region) continue;
          replica.status = ReplicaStatus::kDeleting;
          replica.status_until_ms = now_ms + catalog.options.table_delay_ms;
        }
        if (catalog.options.table_delay_ms == 0) {
          std::erase_if(replicas, [&](const ReplicaDescription& replica) {
            return replica.region_name == region;
          });
        }
        break;
      }
    }
  }
  for (const WitnessUpdate& update : args.witness_updates) {
    if (update.action != WitnessUpdate::Action::kDelete) continue;
    // A witness has no table: it leaves the set (DELETING for --table-delay-ms, as a replica).
    for (ReplicaDescription& replica : replicas) {
      if (replica.region_name != update.region_name || !replica.witness) continue;
      replica.status = ReplicaStatus::kDeleting;
      replica.status_until_ms = now_ms + catalog.options.table_delay_ms;
    }
    if (catalog.options.table_delay_ms == 0) {
      std::erase_if(replicas, [&](const ReplicaDescription& replica) {
        return replica.witness && replica.region_name == update.region_name;
      });
    }
  }
  std::shared_ptr<TableItems> items;
  std::shared_ptr<ReplicaLog> log;
  auto outcome = CommitReplicaSet(catalog, args.table_name, replicas, &items, &log);
  if (!outcome.ok()) return outcome.error();
  link->Announce(here, args.table_name, outcome.value().replicas);
  // The new replica's copy: every item as it is now, then the changes after it, in order.
  for (const ReplicaDescription& replica : outcome.value().replicas) {
    if (replica.status == ReplicaStatus::kCreating && replica.source_region == here && log) {
      log->CopyTo(*items, MemberAddress(replica));
    }
  }
  return outcome;
}

Status SetReplicas(Catalog& catalog, const std::string& table_name,
                   std::vector<ReplicaDescription> replicas) {
  auto set = CommitReplicaSet(catalog, table_name, std::move(replicas), nullptr, nullptr);
  if (!set.ok()) return set.error();
  return Ok{};
}

Status SetReplicaStatus(Catalog& catalog, const std::string& table_name, const std::string& region,
                        ReplicaStatus status) {
  std::vector<ReplicaDescription> replicas;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(table_name, catalog.clock.NowMs());
    if (entry == nullptr) return Ok{};
    replicas = entry->description.replicas;
  }
  bool changed = false;
  for (ReplicaDescription& replica : replicas) {
    if (replica.region_name == region && replica.status != status) {
      replica.status = status;
      changed = true;
    }
  }
  if (!changed) return Ok{};
  return SetReplicas(catalog, table_name, std::move(replicas));
}

Result<bool> ApplyReplicatedWrite(Catalog& catalog, const ReplicatedWrite& write) {
  std::shared_ptr<TableItems> items;
  std::shared_ptr<const TableIndexes> indexes;
  std::shared_ptr<ReplicaLog> log;
  uint64_t generation = 0;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(write.table_name, catalog.clock.NowMs());
    if (entry == nullptr || !entry->replicas) return false;
    items = entry->items;
    indexes = entry->indexes;
    log = entry->replicas;
    generation = items->index_generation();
  }
  const bool put = !write.item.empty();
  const StoredItem stored{write.item, write.item_size};
  IndexEntries entries;
  if (put && !indexes->list().empty()) entries = indexes->EntriesFor(write.key, stored);
  bool newer = false;
  WriteScope scope(*items);
  auto committed = items->Commit(
      scope, write.key,
      [&](const TableItems::Current*) -> Result<TableItems::Write> {
        newer = log->Admit(write.key, write.version);
        if (!newer) return Error::Internal("an older write");  // nothing changes
        if (!put) return TableItems::Write{TableItems::Write::Kind::kDelete};
        return TableItems::Write{TableItems::Write::Kind::kPut, &stored, &entries, generation};
      },
      {ChangeOrigin::kReplication, 0});
  if (!newer) return false;
  if (!committed.ok()) return committed.error();
  return true;
}

namespace {

// The other members of the table's replica set here, by address (none: not a global table).
std::vector<std::string> OtherMembers(const Catalog& catalog, const std::string& table_name) {
  std::vector<std::string> regions;
  std::shared_lock lock(catalog.mutex);
  const TableEntry* entry = catalog.FindLocked(table_name, catalog.clock.NowMs());
  // Version 2017.11.29 keeps no setting alike: each region's table is set on its own.
  if (entry == nullptr || entry->description.legacy_global_table_created_ms != 0) return regions;
  for (const ReplicaDescription& replica : entry->description.replicas) {
    if (replica.region_name != catalog.options.region && !replica.witness) {
      regions.push_back(MemberAddress(replica));
    }
  }
  return regions;
}

}  // namespace

void SyncTimeToLive(const Catalog& catalog, const UpdateTimeToLiveArgs& args) {
  if (args.from_replica || !catalog.options.replication) return;
  const std::vector<std::string> to = OtherMembers(catalog, args.table_name);
  if (to.empty()) return;
  UpdateTimeToLiveArgs shared = args;
  shared.from_replica = true;
  catalog.options.replication->SyncTimeToLive(catalog.options.region, to, shared);
}

void SyncTableUpdate(const Catalog& catalog, const UpdateTableArgs& args) {
  if (args.from_replica || !catalog.options.replication) return;
  if (!args.billing_mode && !args.provisioned_throughput && !args.on_demand_throughput &&
      !args.warm_throughput && args.global_secondary_index_updates.empty()) {
    return;  // nothing DynamoDB keeps alike changed
  }
  const std::vector<std::string> to = OtherMembers(catalog, args.table_name);
  if (to.empty()) return;
  UpdateTableArgs shared;
  shared.table_name = args.table_name;
  shared.attribute_definitions = args.attribute_definitions;
  shared.billing_mode = args.billing_mode;
  shared.provisioned_throughput = args.provisioned_throughput;
  shared.on_demand_throughput = args.on_demand_throughput;
  shared.warm_throughput = args.warm_throughput;
  shared.global_secondary_index_updates = args.global_secondary_index_updates;
  shared.from_replica = true;
  catalog.options.replication->SyncTableUpdate(catalog.options.region, to, shared);
}

std::vector<std::string> ReplicatedTables(const Catalog& catalog) {
  std::vector<std::string> names;
  const int64_t now_ms = catalog.clock.NowMs();
  std::shared_lock lock(catalog.mutex);
  for (const auto& [name, entry] : catalog.tables) {
    if (entry->replicas && !Catalog::IsGone(*entry, now_ms)) names.push_back(name);
  }
  return names;
}

ReplicaVersionList ReplicaVersionsOf(const Catalog& catalog, const std::string& table_name) {
  std::shared_ptr<TableItems> items;
  std::shared_ptr<ReplicaVersions> versions;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(table_name, catalog.clock.NowMs());
    if (entry == nullptr || !entry->versions) return {};
    items = entry->items;
    versions = entry->versions;
  }
  ReplicaVersionList out;
  // Under one hold of the read lock: the items and the deletions as of one moment.
  items->WalkAllThen(
      [&](std::string_view key, std::string_view, uint32_t) {
        out.emplace_back(std::string(key), versions->Find(key).value_or(WriteVersion{}));
        return true;
      },
      [&] {
        for (auto& tombstone : versions->Tombstones()) out.push_back(std::move(tombstone));
      });
  return out;
}

void ResendReplicaItems(const Catalog& catalog, const std::string& table_name,
                        const std::string& region, const std::vector<std::string>& keys) {
  std::shared_ptr<TableItems> items;
  std::shared_ptr<ReplicaLog> log;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(table_name, catalog.clock.NowMs());
    if (entry == nullptr || !entry->replicas) return;
    items = entry->items;
    log = entry->replicas;
  }
  log->Resend(*items, region, keys);
}

void ResumeReplicaCopies(const Catalog& catalog) {
  struct Copy {
    std::shared_ptr<TableItems> items;
    std::shared_ptr<ReplicaLog> log;
    std::string region;
  };
  std::vector<Copy> copies;
  {
    const int64_t now_ms = catalog.clock.NowMs();
    std::shared_lock lock(catalog.mutex);
    for (const auto& [name, entry] : catalog.tables) {
      if (!entry->replicas || Catalog::IsGone(*entry, now_ms)) continue;
      for (const ReplicaDescription& replica : entry->description.replicas) {
        if (replica.status == ReplicaStatus::kCreating &&
            replica.source_region == catalog.options.region) {
          copies.push_back({entry->items, entry->replicas, MemberAddress(replica)});
        }
      }
    }
  }
  for (const Copy& copy : copies) copy.log->CopyTo(*copy.items, copy.region);
}

void AnnounceDeparture(const Catalog& catalog, const TableDescription& table) {
  if (table.replicas.empty() || !catalog.options.replication) return;
  // The others list it DELETING for --table-delay-ms, as its own table is (none: gone at once).
  std::vector<ReplicaDescription> rest = table.replicas;
  const int64_t delay_ms = catalog.options.table_delay_ms;
  for (ReplicaDescription& replica : rest) {
    if (replica.region_name != catalog.options.region) continue;
    replica.status = ReplicaStatus::kDeleting;
    replica.status_until_ms = catalog.clock.NowMs() + delay_ms;
  }
  if (delay_ms == 0) {
    std::erase_if(rest, [&](const ReplicaDescription& replica) {
      return replica.region_name == catalog.options.region;
    });
  }
  catalog.options.replication->Announce(catalog.options.region, table.table_name, rest);
}

}  // namespace ddbd
