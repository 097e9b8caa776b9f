// Version 2017.11.29's DescribeGlobalTableSettings and UpdateGlobalTableSettings
// (engine/replicas/global_tables_2017.h): every member's settings, read through the link.
#include <algorithm>
#include <optional>
#include <utility>

#include "engine/api/replication_link.h"
#include "engine/replicas/global_tables_2017.h"
#include "engine/replicas/replica_auto_scaling.h"

namespace ddbd {
namespace {

using global_tables_2017::GlobalTableNotFound;
using global_tables_2017::GroupOf;
using global_tables_2017::Link;
using global_tables_2017::TableNotFound;

ReplicaStatus StatusOf(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return ReplicaStatus::kCreating;
    case TableStatus::kUpdating:
      return ReplicaStatus::kUpdating;
    case TableStatus::kDeleting:
      return ReplicaStatus::kDeleting;
    case TableStatus::kActive:
      break;
  }
  return ReplicaStatus::kActive;
}

const RegionAutoScaling* OwnSettings(const TableAutoScaling& settings, const std::string& region) {
  for (const RegionAutoScaling& own : settings.regions) {
    if (own.region_name == region) return &own;
  }
  return nullptr;
}

// One member's ReplicaSettingsDescription, from its table as its region describes it.
ReplicaSettingsDescription SettingsOf(const TableDescription& table, const std::string& region) {
  ReplicaSettingsDescription out;
  out.region_name = region;
  out.replica_status = StatusOf(table.table_status);
  out.billing_mode = table.billing_mode;
  out.last_update_to_pay_per_request_ms = table.last_update_to_pay_per_request_ms;
  out.provisioned_throughput = table.provisioned_throughput;
  const TableAutoScaling& scaling = table.auto_scaling;
  const RegionAutoScaling* own = OwnSettings(scaling, region);
  out.write_auto_scaling = scaling.write;
  if (own != nullptr) out.read_auto_scaling = own->read;
  for (const IndexDescription& index : table.indexes) {
    if (!index.is_global) continue;
    ReplicaSettingsDescription::Index& described = out.indexes.emplace_back();
    described.index_name = index.definition.index_name;
    described.index_status = index.index_status;
    if (table.billing_mode == BillingMode::kProvisioned &&
        index.definition.provisioned_throughput) {
      described.provisioned_throughput = *index.definition.provisioned_throughput;
    }
    described.write_auto_scaling = IndexSettings(scaling.index_writes, described.index_name);
    if (own != nullptr) {
      described.read_auto_scaling = IndexSettings(own->index_reads, described.index_name);
    }
  }
  out.table_class = table.table_class;
  out.table_class_last_update_ms = table.table_class_last_update_ms;
  return out;
}

// This region's table of a global table of version 2017.11.29, or GlobalTableNotFoundException.
Result<TableDescription> GlobalTableHere(const Catalog& catalog, const std::string& name) {
  std::optional<TableDescription> table = catalog.Describe(name);
  if (!table || table->legacy_global_table_created_ms == 0) return GlobalTableNotFound(name);
  return std::move(*table);
}

GlobalTableSettingsDescription DescribeSettings(const Catalog& catalog,
                                                const TableDescription& here_table) {
  GlobalTableSettingsDescription out;
  out.global_table_name = here_table.table_name;
  ReplicationLink* link = catalog.options.replication.get();
  for (const std::string& region : GroupOf(here_table)) {
    if (region == catalog.options.region) {
      out.replica_settings.push_back(SettingsOf(here_table, region));
      continue;
    }
    if (link == nullptr) continue;
    auto member = link->DescribeMember(region, here_table.table_name);
    if (member.ok()) out.replica_settings.push_back(SettingsOf(member.value(), region));
  }
  return out;
}

// The names the request gives, against the global table: its regions, then its global indexes
// (ddbd's own words; DynamoDB's texts are not recorded).
Status CheckSettingsNames(const UpdateGlobalTableSettingsArgs& args,
                          const TableDescription& table) {
  const std::vector<std::string> group = GroupOf(table);
  for (const UpdateGlobalTableSettingsArgs::Replica& replica : args.replicas) {
    if (std::find(group.begin(), group.end(), replica.region_name) == group.end()) {
      return Error{ErrorCode::kReplicaNotFound, "Replica not found: the global table " +
                                                    table.table_name + " has no replica in " +
                                                    replica.region_name};
    }
  }
  const auto check_index = [&](const std::string& index_name) -> Status {
    for (const IndexDescription& index : table.indexes) {
      if (index.is_global && index.definition.index_name == index_name) return Ok{};
    }
    return Error{ErrorCode::kIndexNotFound,
                 "Index not found: the global table " + table.table_name +
                     " has no global secondary index named " + index_name};
  };
  for (const UpdateGlobalTableSettingsArgs::IndexWrites& index : args.indexes) {
    if (Status known = check_index(index.index_name); !known.ok()) return known;
  }
  for (const UpdateGlobalTableSettingsArgs::Replica& replica : args.replicas) {
    for (const UpdateGlobalTableSettingsArgs::IndexReads& index : replica.indexes) {
      if (Status known = check_index(index.index_name); !known.ok()) return known;
    }
  }
  return Ok{};
}

// The UpdateTable calls that make the request's changes in `region`'s table `table` (none, one or
// two): the billing mode and write capacities everywhere, the read capacities and table class
// where given. Capacities not given keep the member's own. A table class change is a call of its
// own, as UpdateTable takes it only alone.
std::vector<UpdateTableArgs> MemberUpdates(const UpdateGlobalTableSettingsArgs& args,
                                           const TableDescription& table,
                                           const std::string& region) {
  const UpdateGlobalTableSettingsArgs::Replica* own = nullptr;
  for (const UpdateGlobalTableSettingsArgs::Replica& replica : args.replicas) {
    if (replica.region_name == region) own = &replica;
  }
  UpdateTableArgs update;
  update.table_name = table.table_name;
  update.billing_mode = args.billing_mode;
  const std::optional<int64_t> reads = own != nullptr ? own->read_capacity_units : std::nullopt;
  if (args.write_capacity_units || reads) {
    update.provisioned_throughput = ProvisionedThroughput{
        reads.value_or(table.provisioned_throughput.read_capacity_units),
        args.write_capacity_units.value_or(table.provisioned_throughput.write_capacity_units)};
  }
  for (const IndexDescription& index : table.indexes) {
    if (!index.is_global) continue;
    const std::string& name = index.definition.index_name;
    std::optional<int64_t> index_writes;
    std::optional<int64_t> index_reads;
    for (const UpdateGlobalTableSettingsArgs::IndexWrites& given : args.indexes) {
      if (given.index_name == name && given.write_capacity_units) {
        index_writes = given.write_capacity_units;
      }
    }
    if (own != nullptr) {
      for (const UpdateGlobalTableSettingsArgs::IndexReads& given : own->indexes) {
        if (given.index_name == name && given.read_capacity_units) {
          index_reads = given.read_capacity_units;
        }
      }
    }
    if (!index_writes && !index_reads) continue;
    const ProvisionedThroughput had =
        index.definition.provisioned_throughput.value_or(ProvisionedThroughput{});
    GlobalSecondaryIndexUpdate& changed = update.global_secondary_index_updates.emplace_back();
    changed.action = GlobalSecondaryIndexUpdate::Action::kUpdate;
    changed.index.index_name = name;
    changed.index.provisioned_throughput =
        ProvisionedThroughput{index_reads.value_or(had.read_capacity_units),
                              index_writes.value_or(had.write_capacity_units)};
  }
  std::vector<UpdateTableArgs> updates;
  if (update.billing_mode || update.provisioned_throughput ||
      !update.global_secondary_index_updates.empty()) {
    update.other_updates_given = true;
    updates.push_back(std::move(update));
  }
  if (own != nullptr && own->table_class) {
    UpdateTableArgs& table_class = updates.emplace_back();
    table_class.table_name = table.table_name;
    table_class.table_class = own->table_class;
    table_class.other_updates_given = true;
  }
  return updates;
}

// The request's auto scaling parts, as UpdateTableReplicaAutoScaling takes them (nullopt: none).
std::optional<UpdateTableReplicaAutoScalingArgs> ScalingUpdateOf(
    const UpdateGlobalTableSettingsArgs& args) {
  UpdateTableReplicaAutoScalingArgs scaling;
  scaling.table_name = args.global_table_name;
  scaling.write = args.write_auto_scaling;
  for (const UpdateGlobalTableSettingsArgs::IndexWrites& index : args.indexes) {
    if (index.write_auto_scaling) {
      scaling.index_writes.emplace_back(index.index_name, *index.write_auto_scaling);
    }
  }
  for (const UpdateGlobalTableSettingsArgs::Replica& replica : args.replicas) {
    UpdateTableReplicaAutoScalingArgs::Region region;
    region.region_name = replica.region_name;
    region.read = replica.read_auto_scaling;
    for (const UpdateGlobalTableSettingsArgs::IndexReads& index : replica.indexes) {
      if (index.read_auto_scaling) {
        region.index_reads.emplace_back(index.index_name, *index.read_auto_scaling);
      }
    }
    if (region.read || !region.index_reads.empty()) scaling.regions.push_back(std::move(region));
  }
  if (!scaling.write && scaling.index_writes.empty() && scaling.regions.empty()) {
    return std::nullopt;
  }
  return scaling;
}

}  // namespace

Result<GlobalTableSettingsDescription> DescribeGlobalTableSettings(
    const Catalog& catalog, const std::string& global_table_name) {
  auto table = GlobalTableHere(catalog, global_table_name);
  if (!table.ok()) return table.error();
  return DescribeSettings(catalog, table.value());
}

Result<GlobalTableSettingsDescription> UpdateGlobalTableSettings(
    Catalog& catalog, const UpdateTableCall& update_table,
    const UpdateGlobalTableSettingsArgs& args) {
  const std::string& here = catalog.options.region;
  const std::string& name = args.global_table_name;
  auto table = GlobalTableHere(catalog, name);
  if (!table.ok()) return table.error();
  auto link = Link(catalog);
  if (!link.ok()) return link.error();
  if (Status names = CheckSettingsNames(args, table.value()); !names.ok()) return names.error();
  // Auto scaling is checked first against the table as the billing mode will leave it, so that a
  // refusal of it changes nothing.
  const std::optional<UpdateTableReplicaAutoScalingArgs> scaling = ScalingUpdateOf(args);
  if (scaling) {
    TableDescription after = table.value();
    if (args.billing_mode) after.billing_mode = *args.billing_mode;
    if (Status valid = CheckReplicaAutoScaling(after, here, *scaling); !valid.ok()) {
      return valid.error();
    }
  }
  // This region first: UpdateTable's own checks answer a capacity or billing change the members
  // share; then the others, each with its own read settings.
  Ticket ticket;
  for (const UpdateTableArgs& update : MemberUpdates(args, table.value(), here)) {
    auto updated = update_table(update);
    if (!updated.ok()) return updated.error();
    ticket.Add(updated.value().ticket);
  }
  for (const std::string& region : GroupOf(table.value())) {
    if (region == here) continue;
    auto member = link.value()->DescribeMember(region, name);
    if (!member.ok()) return TableNotFound(name, region);
    for (const UpdateTableArgs& update : MemberUpdates(args, member.value(), region)) {
      if (Status updated = link.value()->UpdateMember(region, update); !updated.ok()) {
        return updated.error();
      }
    }
  }
  if (scaling) {
    auto scaled = UpdateReplicaAutoScaling(catalog, *scaling);
    if (!scaled.ok()) return scaled.error();
    ticket.Add(scaled.value().ticket);
  }
  auto now = GlobalTableHere(catalog, name);
  if (!now.ok()) return now.error();
  GlobalTableSettingsDescription out = DescribeSettings(catalog, now.value());
  out.ticket = ticket;
  return out;
}

}  // namespace ddbd
