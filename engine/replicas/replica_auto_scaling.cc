#include "engine/replicas/replica_auto_scaling.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "engine/api/replication_link.h"
#include "engine/replicas/replica_updates.h"

namespace ddbd {

std::optional<AutoScalingSettings> IndexSettings(const std::vector<IndexAutoScaling>& list,
                                                 const std::string& index_name) {
  for (const IndexAutoScaling& index : list) {
    if (index.index_name == index_name) return index.settings;
  }
  return std::nullopt;
}

namespace {

// ddbd's own words: DynamoDB's texts for these refusals are not recorded.
constexpr char kOnDemand[] =
    "One or more parameter values were invalid: auto scaling settings cannot be given for a table "
    "whose BillingMode is PAY_PER_REQUEST";

Status NoSuchIndex(const std::string& index_name) {
  return Error::Validation(
      "One or more parameter values were invalid: the table has no global "
      "secondary index named " +
      index_name);
}

// The policy's name when the update gives none, as the console names the policies it makes.
std::string DefaultPolicyName(const std::string& dimension, const std::string& table_name,
                              const std::string& index_name) {
  return "DynamoDB" + dimension + "CapacityUtilization:table/" + table_name +
         (index_name.empty() ? "" : "/index/" + index_name);
}

// `update` over what was set (nothing: all but the policy must be given now).
Result<AutoScalingSettings> Merge(const std::optional<AutoScalingSettings>& had,
                                  const AutoScalingUpdate& update, std::string policy_name) {
  if (!had && (!update.minimum_units || !update.maximum_units)) {
    return Error::Validation(
        "One or more parameter values were invalid: MinimumUnits and MaximumUnits must both be "
        "given when auto scaling is first set");
  }
  AutoScalingSettings settings = had.value_or(AutoScalingSettings{});
  if (update.minimum_units) settings.minimum_units = *update.minimum_units;
  if (update.maximum_units) settings.maximum_units = *update.maximum_units;
  if (update.disabled) settings.disabled = *update.disabled;
  if (update.role_arn) settings.role_arn = update.role_arn;
  if (update.policy) {
    AutoScalingPolicy policy = *update.policy;
    if (policy.policy_name.empty()) policy.policy_name = std::move(policy_name);
    settings.policies = {std::move(policy)};  // one target tracking policy a dimension
  }
  if (settings.minimum_units > settings.maximum_units) {
    return Error::Validation("One or more parameter values were invalid: MinimumUnits (" +
                             std::to_string(settings.minimum_units) +
                             ") must not be greater than MaximumUnits (" +
                             std::to_string(settings.maximum_units) + ")");
  }
  return settings;
}

void SetIndexSettings(std::vector<IndexAutoScaling>& list, const std::string& index_name,
                      AutoScalingSettings settings) {
  for (IndexAutoScaling& index : list) {
    if (index.index_name == index_name) {
      index.settings = std::move(settings);
      return;
    }
  }
  list.push_back({index_name, std::move(settings)});
}

// Every update applied to `settings`, or the first refusal.
Status Apply(const UpdateTableReplicaAutoScalingArgs& args, TableAutoScaling& settings) {
  const std::string& table = args.table_name;
  if (args.write) {
    auto merged = Merge(settings.write, *args.write, DefaultPolicyName("Write", table, ""));
    if (!merged.ok()) return merged.error();
    settings.write = std::move(merged.value());
  }
  for (const auto& [index_name, update] : args.index_writes) {
    auto merged = Merge(IndexSettings(settings.index_writes, index_name), update,
                        DefaultPolicyName("Write", table, index_name));
    if (!merged.ok()) return merged.error();
    SetIndexSettings(settings.index_writes, index_name, std::move(merged.value()));
  }
  for (const UpdateTableReplicaAutoScalingArgs::Region& given : args.regions) {
    auto it = std::find_if(
        settings.regions.begin(), settings.regions.end(),
        [&](const RegionAutoScaling& region) { return region.region_name == given.region_name; });
    if (it == settings.regions.end()) {
      settings.regions.push_back({given.region_name, std::nullopt, {}});
      it = std::prev(settings.regions.end());
    }
    if (given.read) {
      auto merged = Merge(it->read, *given.read, DefaultPolicyName("Read", table, ""));
      if (!merged.ok()) return merged.error();
      it->read = std::move(merged.value());
    }
    for (const auto& [index_name, update] : given.index_reads) {
      auto merged = Merge(IndexSettings(it->index_reads, index_name), update,
                          DefaultPolicyName("Read", table, index_name));
      if (!merged.ok()) return merged.error();
      SetIndexSettings(it->index_reads, index_name, std::move(merged.value()));
    }
  }
  return Ok{};
}

// The request's names against the table: its global indexes, its members, its billing mode.
Status CheckNames(const UpdateTableReplicaAutoScalingArgs& args, const TableDescription& table,
                  const std::string& here) {
  const auto is_global_index = [&](const std::string& name) {
    return std::any_of(table.indexes.begin(), table.indexes.end(),
                       [&](const IndexDescription& index) {
                         return index.is_global && index.definition.index_name == name;
                       });
  };
  std::vector<std::string> strangers;
  for (const UpdateTableReplicaAutoScalingArgs::Region& region : args.regions) {
    const bool member =
        table.replicas.empty()
            ? region.region_name == here
            : std::any_of(table.replicas.begin(), table.replicas.end(),
                          [&](const ReplicaDescription& replica) {
                            return !replica.witness && replica.region_name == region.region_name;
                          });
    if (!member &&
        std::find(strangers.begin(), strangers.end(), region.region_name) == strangers.end()) {
      strangers.push_back(region.region_name);
    }
  }
  if (!strangers.empty()) return Error::Validation(NotMembersMessage(strangers));
  for (const auto& [index_name, update] : args.index_writes) {
    if (!is_global_index(index_name)) return NoSuchIndex(index_name);
  }
  for (const UpdateTableReplicaAutoScalingArgs::Region& region : args.regions) {
    for (const auto& [index_name, update] : region.index_reads) {
      if (!is_global_index(index_name)) return NoSuchIndex(index_name);
    }
  }
  const bool any = args.write || !args.index_writes.empty() || !args.regions.empty();
  if (any && table.billing_mode == BillingMode::kPayPerRequest) {
    return Error::Validation(kOnDemand);
  }
  return Ok{};
}

Result<TableDescription> FindTable(const Catalog& catalog, const std::string& table_name) {
  std::optional<TableDescription> table = catalog.Describe(table_name);
  if (!table) {
    return Error::TableResourceNotFound(table_name);
  }
  return std::move(*table);
}

TableAutoScalingDescription DescribeAutoScaling(const TableDescription& table,
                                                const std::string& here) {
  TableAutoScalingDescription out;
  out.table_name = table.table_name;
  out.table_status = table.table_status;
  std::vector<ReplicaDescription> members = table.replicas;
  std::erase_if(members, [](const ReplicaDescription& member) { return member.witness; });
  if (members.empty()) {
    ReplicaDescription self;
    self.region_name = here;
    members.push_back(self);
  }
  const TableAutoScaling& settings = table.auto_scaling;
  for (const ReplicaDescription& member : members) {
    ReplicaAutoScalingDescription& replica = out.replicas.emplace_back();
    replica.region_name = member.region_name;
    replica.replica_status = member.status;
    replica.write = settings.write;
    const RegionAutoScaling* own = nullptr;
    for (const RegionAutoScaling& region : settings.regions) {
      if (region.region_name == member.region_name) own = &region;
    }
    if (own != nullptr) replica.read = own->read;
    for (const IndexDescription& index : table.indexes) {
      if (!index.is_global) continue;
      ReplicaAutoScalingDescription::Index& described = replica.indexes.emplace_back();
      described.index_name = index.definition.index_name;
      described.index_status = index.index_status;
      described.write = IndexSettings(settings.index_writes, described.index_name);
      if (own != nullptr) described.read = IndexSettings(own->index_reads, described.index_name);
    }
  }
  return out;
}

}  // namespace

Result<TableAutoScalingDescription> UpdateReplicaAutoScaling(
    Catalog& catalog, const UpdateTableReplicaAutoScalingArgs& args) {
  const std::string& here = catalog.options.region;
  auto table = FindTable(catalog, args.table_name);
  if (!table.ok()) return table.error();
  if (Status names = CheckNames(args, table.value(), here); !names.ok()) return names.error();
  TableAutoScaling settings;
  auto changed = catalog.ChangeMetadata(args.table_name, [&](TableDescription& description) {
    if (Status applied = Apply(args, description.auto_scaling); !applied.ok()) return applied;
    settings = description.auto_scaling;
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  std::vector<std::string> others;
  for (const ReplicaDescription& replica : table.value().replicas) {
    if (replica.region_name != here && replica.status != ReplicaStatus::kDeleting &&
        !replica.witness) {
      others.push_back(replica.region_name);
    }
  }
  if (!others.empty() && catalog.options.replication) {
    catalog.options.replication->SyncAutoScaling(here, others, args.table_name, settings);
  }
  table.value().auto_scaling = std::move(settings);
  TableAutoScalingDescription described = DescribeAutoScaling(table.value(), here);
  described.ticket = changed.value();
  return described;
}

Status CheckReplicaAutoScaling(const TableDescription& table, const std::string& region,
                               const UpdateTableReplicaAutoScalingArgs& args) {
  if (Status names = CheckNames(args, table, region); !names.ok()) return names;
  TableAutoScaling settings = table.auto_scaling;
  return Apply(args, settings);
}

Result<TableAutoScalingDescription> DescribeReplicaAutoScaling(const Catalog& catalog,
                                                               const std::string& table_name) {
  auto table = FindTable(catalog, table_name);
  if (!table.ok()) return table.error();
  return DescribeAutoScaling(table.value(), catalog.options.region);
}

Status SetReplicaAutoScaling(Catalog& catalog, const std::string& table_name,
                             TableAutoScaling settings) {
  auto changed = catalog.ChangeMetadata(table_name, [&](TableDescription& description) {
    description.auto_scaling = std::move(settings);
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  return Ok{};
}

bool WriteCapacityScales(const TableDescription& table) {
  return table.billing_mode == BillingMode::kPayPerRequest ||
         (table.auto_scaling.write && !table.auto_scaling.write->disabled);
}

}  // namespace ddbd
