#include "engine/replicas/global_tables_2017.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <string_view>
#include <utility>

#include "engine/api/replication_link.h"

namespace ddbd {

namespace global_tables_2017 {

Error TableNotFound(const std::string& table_name, const std::string& region) {
  // AWS-recorded (aws-controllers-k8s/community issue 1034).
  return Error{ErrorCode::kTableNotFound, "Table not found: Table: '" + table_name +
                                              "' not found in region: '" + region + "'."};
}

Error GlobalTableNotFound(const std::string& name) {
  return Error{ErrorCode::kGlobalTableNotFound, "Global table not found: " + name};
}

std::vector<std::string> GroupOf(const TableDescription& table) {
  std::vector<std::string> group;
  for (const ReplicaDescription& replica : table.replicas) group.push_back(replica.region_name);
  return group;
}

Result<ReplicationLink*> Link(const Catalog& catalog) {
  ReplicationLink* link = catalog.options.replication.get();
  if (link == nullptr) {
    return Error::Validation("Global tables need a database per region: this server keeps one");
  }
  if (std::string why = link->Unavailable(); !why.empty()) return Error::Validation(why);
  return link;
}

}  // namespace global_tables_2017

namespace {

using global_tables_2017::GlobalTableNotFound;
using global_tables_2017::GroupOf;
using global_tables_2017::Link;
using global_tables_2017::TableNotFound;

// The regions version 2017.11.29 is served in, in the order DynamoDB lists them (AWS-recorded:
// terraform-provider-aws issue 11601).
constexpr std::string_view kLegacyRegions[] = {
    "us-west-1",      "us-west-2", "ap-northeast-1", "ap-northeast-2", "us-east-1",   "eu-west-1",
    "ap-southeast-1", "us-east-2", "eu-west-2",      "ap-southeast-2", "eu-central-1"};

// Each region given against the legacy version's regions, as DynamoDB words it (AWS-recorded,
// same issue): every failure, by the member's path ("replicationGroup.1.member.regionName").
Status CheckRegions(const std::vector<std::pair<std::string, std::string>>& regions_by_path) {
  std::string set;
  for (std::string_view region : kLegacyRegions) {
    set += (set.empty() ? "" : ", ") + std::string(region);
  }
  std::vector<std::string> failures;
  for (const auto& [path, region] : regions_by_path) {
    if (std::find(std::begin(kLegacyRegions), std::end(kLegacyRegions), region) !=
        std::end(kLegacyRegions)) {
      continue;
    }
    failures.push_back("Value '" + region + "' at '" + path +
                       "' failed to satisfy constraint: Member must satisfy enum value set: [" +
                       set + "]");
  }
  if (failures.empty()) return Ok{};
  std::string message =
      kInvalidParameterValues + std::to_string(failures.size()) +
      (failures.size() == 1 ? " validation error detected: " : " validation errors detected: ");
  for (size_t i = 0; i < failures.size(); ++i) message += (i == 0 ? "" : "; ") + failures[i];
  return Error::Validation(message);
}

std::string KeysOf(const TableDescription& table) {
  std::string keys;
  for (const KeySchemaElement& element : table.key_schema) {
    keys += element.attribute_name + (element.key_type == KeyType::kHash ? "/H/" : "/R/");
    for (const AttributeDefinition& definition : table.attribute_definitions) {
      if (definition.attribute_name == element.attribute_name) {
        keys += std::to_string(static_cast<int>(definition.attribute_type)) + ";";
      }
    }
  }
  return keys;
}

std::vector<std::string> GlobalIndexesOf(const TableDescription& table) {
  std::vector<std::string> indexes;
  for (const IndexDescription& index : table.indexes) {
    if (!index.is_global) continue;
    std::string keys = index.definition.index_name + ":";
    for (const KeySchemaElement& element : index.definition.key_schema) {
      keys += element.attribute_name + (element.key_type == KeyType::kHash ? "/H;" : "/R;");
    }
    indexes.push_back(std::move(keys));
  }
  std::sort(indexes.begin(), indexes.end());
  return indexes;
}

// Whether `table` (in `region`) may join a global table whose tables are like `like`: the
// requirements for a new replica (Developer Guide, "Best Practices and Requirements for Managing
// Global Tables": the same name, keys, global indexes and write capacity settings, a stream with
// both images, no data; and no global table of either version already). ddbd's own words.
Status CheckMember(const TableDescription& table, const std::string& region,
                   const TableDescription& like) {
  const std::string in = "the table " + table.table_name + " in " + region;
  if (!table.replicas.empty()) {
    return Error{ErrorCode::kGlobalTableAlreadyExists,
                 "Global table already exists: " + in + " is a replica of a global table"};
  }
  if (!table.stream_specification || !table.stream_specification->stream_enabled ||
      table.stream_specification->stream_view_type != StreamViewType::kNewAndOldImages) {
    return Error::Validation(kInvalidParameterValues + in +
                             " must have DynamoDB Streams enabled with NEW_AND_OLD_IMAGES");
  }
  if (KeysOf(table) != KeysOf(like)) {
    return Error::Validation(kInvalidParameterValues + in +
                             " does not have the key schema of the other replicas");
  }
  if (GlobalIndexesOf(table) != GlobalIndexesOf(like)) {
    return Error::Validation(kInvalidParameterValues + in +
                             " does not have the global secondary indexes of the other replicas");
  }
  if (table.billing_mode != like.billing_mode ||
      (table.billing_mode == BillingMode::kProvisioned &&
       table.provisioned_throughput.write_capacity_units !=
           like.provisioned_throughput.write_capacity_units)) {
    return Error::Validation(kInvalidParameterValues + in +
                             " does not have the write capacity settings of the other replicas");
  }
  return Ok{};
}

Status CheckEmpty(const TableDescription& table, const std::string& region) {
  if (table.item_count == 0) return Ok{};
  return Error::Validation(std::string(kInvalidParameterValues) + "the table " + table.table_name +
                           " in " + region +
                           " is not empty: every replica of a global table of version "
                           "2017.11.29 must be empty when one is added");
}

GlobalTableDescription DescribeGlobalTable(const Catalog& catalog, const TableDescription& table) {
  GlobalTableDescription out;
  out.global_table_name = table.table_name;
  out.global_table_arn =
      "arn:aws:dynamodb::" + catalog.options.account_id + ":global-table/" + table.table_name;
  out.creation_date_time_ms = table.legacy_global_table_created_ms;
  out.replication_group = GroupOf(table);
  return out;
}

// This region's table of the name, as described now (counts filled: emptiness is checked).
Result<TableDescription> Here(const Catalog& catalog, const std::string& table_name) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::shared_ptr<TableItems> items;
  TableDescription table;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(table_name, now_ms);
    if (entry == nullptr) return TableNotFound(table_name, catalog.options.region);
    table = Catalog::Snapshot(*entry, now_ms);
    items = entry->items;
  }
  Catalog::FillCounts(*items, table);
  return table;
}

// Sets the table's group here.
Result<Ticket> JoinHere(Catalog& catalog, const std::string& table_name,
                        const std::vector<std::string>& group, int64_t created_ms) {
  return catalog.ChangeMetadata(table_name, [&](TableDescription& description) {
    description.replicas.clear();
    for (const std::string& member : group) {
      ReplicaDescription replica;
      replica.region_name = member;
      replica.created_ms = created_ms;
      description.replicas.push_back(std::move(replica));
    }
    description.legacy_global_table_created_ms = group.empty() ? 0 : created_ms;
    return Status(Ok{});
  });
}

// Sets the group in every region of `regions` (this one here, for its ticket).
Result<Ticket> Join(Catalog& catalog, ReplicationLink& link, const std::string& table_name,
                    const std::vector<std::string>& regions, const std::vector<std::string>& group,
                    int64_t created_ms) {
  Ticket ticket;
  for (const std::string& region : regions) {
    if (region == catalog.options.region) {
      auto set = JoinHere(catalog, table_name, group, created_ms);
      if (!set.ok()) return set.error();
      ticket = set.value();
    } else if (Status set = link.SetLegacyGlobalTable(region, table_name, group, created_ms);
               !set.ok()) {
      return set.error();
    }
  }
  return ticket;
}

}  // namespace

Status SetLegacyGlobalTable(Catalog& catalog, const std::string& table_name,
                            const std::vector<std::string>& group, int64_t created_ms) {
  auto joined = JoinHere(catalog, table_name, group, created_ms);
  if (!joined.ok()) return joined.error();
  return Ok{};
}

Result<GlobalTableDescription> CreateGlobalTable(Catalog& catalog,
                                                 const CreateGlobalTableArgs& args) {
  std::vector<std::pair<std::string, std::string>> paths;
  for (size_t i = 0; i < args.replication_group.size(); ++i) {
    paths.emplace_back("replicationGroup." + std::to_string(i + 1) + ".member.regionName",
                       args.replication_group[i]);
  }
  if (Status regions = CheckRegions(paths); !regions.ok()) return regions.error();
  auto link = Link(catalog);
  if (!link.ok()) return link.error();
  const std::string& here = catalog.options.region;
  const std::string& name = args.global_table_name;
  std::vector<std::string> group;
  for (const std::string& region : args.replication_group) {
    if (std::find(group.begin(), group.end(), region) == group.end()) group.push_back(region);
  }
  if (std::find(group.begin(), group.end(), here) == group.end()) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "the ReplicationGroup must include the region of the request, " +
                             here);
  }
  auto like = Here(catalog, name);
  if (!like.ok()) return like.error();
  if (like.value().legacy_global_table_created_ms != 0) {
    return Error{ErrorCode::kGlobalTableAlreadyExists, "Global table already exists: " + name};
  }
  for (const std::string& region : group) {
    auto table = region == here ? like : link.value()->DescribeMember(region, name);
    if (!table.ok()) return TableNotFound(name, region);
    if (Status member = CheckMember(table.value(), region, like.value()); !member.ok()) {
      return member.error();
    }
    if (Status empty = CheckEmpty(table.value(), region); !empty.ok()) return empty.error();
  }
  const int64_t now_ms = catalog.clock.NowMs();
  auto joined = Join(catalog, *link.value(), name, group, group, now_ms);
  if (!joined.ok()) return joined.error();
  GlobalTableDescription out = DescribeGlobalTable(catalog, like.value());
  out.creation_date_time_ms = now_ms;
  out.replication_group = group;
  out.ticket = joined.value();
  return out;
}

Result<GlobalTableDescription> UpdateGlobalTable(Catalog& catalog,
                                                 const UpdateGlobalTableArgs& args) {
  std::vector<std::pair<std::string, std::string>> paths;
  for (size_t i = 0; i < args.replica_updates.size(); ++i) {
    const UpdateGlobalTableArgs::Update& update = args.replica_updates[i];
    const std::string at = "replicaUpdates." + std::to_string(i + 1) + ".member.";
    if (update.create) paths.emplace_back(at + "create.regionName", *update.create);
    if (update.remove) paths.emplace_back(at + "delete.regionName", *update.remove);
  }
  if (Status regions = CheckRegions(paths); !regions.ok()) return regions.error();
  for (const UpdateGlobalTableArgs::Update& update : args.replica_updates) {
    if (update.create.has_value() == update.remove.has_value()) {
      return Error::Validation(std::string(kInvalidParameterValues) +
                               "each ReplicaUpdate must give exactly one of Create and Delete");
    }
  }
  auto link = Link(catalog);
  if (!link.ok()) return link.error();
  const std::string& here = catalog.options.region;
  const std::string& name = args.global_table_name;
  auto current = Here(catalog, name);
  if (!current.ok() || current.value().legacy_global_table_created_ms == 0) {
    return GlobalTableNotFound(name);
  }
  const TableDescription& like = current.value();
  const int64_t created_ms = like.legacy_global_table_created_ms;
  std::vector<std::string> group = GroupOf(like);
  std::vector<std::string> added;
  std::vector<std::string> removed;
  for (const UpdateGlobalTableArgs::Update& update : args.replica_updates) {
    const std::string& region = update.create ? *update.create : *update.remove;
    const bool member = std::find(group.begin(), group.end(), region) != group.end();
    if (update.create && member) {
      return Error{ErrorCode::kReplicaAlreadyExists, "Replica already exists: the global table " +
                                                         name + " has a replica in " + region};
    }
    if (update.remove && !member) {
      return Error{ErrorCode::kReplicaNotFound,
                   "Replica not found: the global table " + name + " has no replica in " + region};
    }
    if (update.create) {
      auto table = link.value()->DescribeMember(region, name);
      if (!table.ok()) return TableNotFound(name, region);
      if (Status fits = CheckMember(table.value(), region, like); !fits.ok()) return fits.error();
      if (Status empty = CheckEmpty(table.value(), region); !empty.ok()) return empty.error();
      group.push_back(region);
      added.push_back(region);
    } else {
      std::erase(group, region);
      removed.push_back(region);
    }
  }
  if (!added.empty()) {
    // Adding a replica asks every replica to be empty (Developer Guide, "Global Tables: How It
    // Works").
    for (const std::string& region : group) {
      auto table =
          region == here ? Here(catalog, name) : link.value()->DescribeMember(region, name);
      if (!table.ok()) continue;
      if (Status empty = CheckEmpty(table.value(), region); !empty.ok()) return empty.error();
    }
  }
  // The regions removed leave first (their tables stay, tables of their regions alone); then
  // every member, old and new, gets the group.
  Ticket ticket;
  for (const std::string& region : removed) {
    auto left = Join(catalog, *link.value(), name, {region}, {}, 0);
    if (!left.ok()) return left.error();
    ticket.Add(left.value());
  }
  auto joined = Join(catalog, *link.value(), name, group, group, created_ms);
  if (!joined.ok()) return joined.error();
  ticket.Add(joined.value());
  GlobalTableDescription out = DescribeGlobalTable(catalog, like);
  out.replication_group = group;
  out.ticket = ticket;
  return out;
}

Result<GlobalTableDescription> DescribeGlobalTable(const Catalog& catalog,
                                                   const std::string& global_table_name) {
  std::optional<TableDescription> table = catalog.Describe(global_table_name);
  if (!table || table->legacy_global_table_created_ms == 0) {
    return GlobalTableNotFound(global_table_name);
  }
  return DescribeGlobalTable(catalog, *table);
}

ListGlobalTablesResult ListGlobalTables(const Catalog& catalog, const ListGlobalTablesArgs& args) {
  const int64_t now_ms = catalog.clock.NowMs();
  std::vector<std::pair<std::string, std::vector<std::string>>> all;
  {
    std::shared_lock lock(catalog.mutex);
    for (const auto& [name, entry] : catalog.tables) {
      if (Catalog::IsGone(*entry, now_ms) ||
          entry->description.legacy_global_table_created_ms == 0) {
        continue;
      }
      std::vector<std::string> group = GroupOf(entry->description);
      if (args.region_name &&
          std::find(group.begin(), group.end(), *args.region_name) == group.end()) {
        continue;
      }
      all.emplace_back(name, std::move(group));
    }
  }
  std::sort(all.begin(), all.end());
  ListGlobalTablesResult out;
  const size_t limit = static_cast<size_t>(std::clamp<int64_t>(args.limit.value_or(100), 1, 100));
  for (auto& global_table : all) {
    if (args.exclusive_start_global_table_name &&
        global_table.first <= *args.exclusive_start_global_table_name) {
      continue;
    }
    if (out.global_tables.size() == limit) {
      out.last_evaluated_global_table_name = out.global_tables.back().first;
      break;
    }
    out.global_tables.push_back(std::move(global_table));
  }
  return out;
}

}  // namespace ddbd
