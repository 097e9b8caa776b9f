#include "engine/replicas/multi_account.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/replication_link.h"
#include "engine/replicas/replica_auto_scaling.h"
#include "engine/replicas/replica_updates.h"

namespace ddbd {
namespace {

struct SourceArn {
  std::string region;
  std::string account_id;
  std::string table_name;
};

// "arn:<partition>:dynamodb:<region>:<account>:table/<name>"; nullopt for anything else.
std::optional<SourceArn> ParseSourceArn(std::string_view arn) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (int i = 0; i < 5; ++i) {
    const size_t colon = arn.find(':', start);
    if (colon == std::string_view::npos) return std::nullopt;
    parts.push_back(arn.substr(start, colon - start));
    start = colon + 1;
  }
  const std::string_view resource = arn.substr(start);
  if (parts[0] != "arn" || parts[1].empty() || parts[2] != "dynamodb" || parts[3].empty() ||
      !IsAccountId(parts[4]) || !resource.starts_with("table/")) {
    return std::nullopt;
  }
  const std::string_view name = resource.substr(6);
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return SourceArn{std::string(parts[3]), std::string(parts[4]), std::string(name)};
}

// The settings a replica takes from its source, which CreateTable may not give beside the ARN:
// the first given, by its member's name.
const char* SharedSettingGiven(const CreateTableArgs& args) {
  if (!args.attribute_definitions.empty()) return "AttributeDefinitions";
  if (!args.key_schema.empty()) return "KeySchema";
  if (!args.local_secondary_indexes.empty()) return "LocalSecondaryIndexes";
  if (!args.global_secondary_indexes.empty()) return "GlobalSecondaryIndexes";
  if (!args.vector_indexes.empty()) return "VectorIndexes";
  if (args.billing_mode) return "BillingMode";
  if (args.provisioned_throughput) return "ProvisionedThroughput";
  if (args.on_demand_throughput) return "OnDemandThroughput";
  if (args.warm_throughput) return "WarmThroughput";
  if (args.stream_specification) return "StreamSpecification";
  return nullptr;
}

// The request alone, before any table is looked at.
Result<SourceArn> CheckJoinShape(const Catalog& catalog, const CreateTableArgs& args) {
  if (args.settings_replication_mode != SettingsReplicationMode::kEnabled) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "GlobalTableSettingsReplicationMode must be ENABLED for a replica "
                             "of a multi-account global table");
  }
  std::optional<SourceArn> source = ParseSourceArn(*args.global_table_source_arn);
  if (!source) {
    return Error::Validation(
        std::string(kInvalidParameterValues) +
        "GlobalTableSourceArn is not the ARN of a table: " + *args.global_table_source_arn);
  }
  if (source->table_name != args.table_name) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "a replica has its global table's name: " + source->table_name);
  }
  if (const char* given = SharedSettingGiven(args)) {
    return Error::Validation(std::string(kInvalidParameterValues) + given +
                             " cannot be given with GlobalTableSourceArn: a replica takes its "
                             "source table's");
  }
  if (source->account_id == catalog.options.account_id) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "the source table is in this account: UpdateTable's ReplicaUpdates "
                             "adds a replica in this account");
  }
  if (source->region == catalog.options.region) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "the source table is in this Region: a global table has one replica "
                             "per Region");
  }
  return std::move(*source);
}

// The source as a new member in `region` and `account_id` finds it (the joining account, and the
// source again as it admits it): a table of one Region or a multi-account global table, settled,
// whose writes scale, with no member in that Region or account.
Status CheckSource(const TableDescription& source, const std::string& region,
                   const std::string& account_id) {
  if (source.legacy_global_table_created_ms != 0) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "the source table is a replica of a global table of version "
                             "2017.11.29");
  }
  if (!source.replicas.empty() && source.replicas.front().strong) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "a global table with MultiRegionConsistency STRONG takes no replicas "
                             "in other accounts");
  }
  if (!source.replicas.empty() && !MultiAccount(source.replicas)) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "the source table is a same-account global table: delete its other "
                             "replicas before it takes replicas in other accounts");
  }
  if (Status settled = CheckReplicasSettled(source); !settled.ok()) return settled;
  // As for a replica in this account (UpdateReplicas): every member must take the others' writes.
  if (!WriteCapacityScales(source)) {
    return Error::Validation(
        "Table write capacity should either be Pay-Per-Request or AutoScaled.");
  }
  for (const ReplicaDescription& member : source.replicas) {
    if (member.region_name == region) {
      return Error::Validation(ReplicaExistsMessage(source.table_name));
    }
    if (member.account_id == account_id) {
      return Error::Validation(std::string(kInvalidParameterValues) + "account " + account_id +
                               " holds a replica of the table already");
    }
  }
  return Ok{};
}

}  // namespace

Result<TableOutcome> JoinGlobalTable(Catalog& catalog, const CreateTableCall& create_table,
                                     const DropTableCall& drop_table, const CreateTableArgs& args) {
  auto source_arn = CheckJoinShape(catalog, args);
  if (!source_arn.ok()) return source_arn.error();
  const SourceArn& arn = source_arn.value();
  ReplicationLink* link = catalog.options.replication.get();
  if (link == nullptr) {
    return Error::Validation("Global tables need a database per region: this server keeps one");
  }
  if (std::string why = link->Unavailable(); !why.empty()) return Error::Validation(why);
  auto source = link->DescribeInAccount(arn.account_id, arn.region, arn.table_name);
  if (!source.ok()) return source.error();
  if (Status usable =
          CheckSource(source.value(), catalog.options.region, catalog.options.account_id);
      !usable.ok()) {
    return usable.error();
  }

  // The members as they will be: the source's (itself alone, for a table of one Region), each
  // naming its account and namespace, and this one, CREATING until the source's copy arrives.
  const int64_t now_ms = catalog.clock.NowMs();
  std::vector<ReplicaDescription> replicas = source.value().replicas;
  if (replicas.empty()) {
    ReplicaDescription first;
    first.region_name = arn.region;
    first.created_ms = source.value().creation_date_time_ms;
    first.account_id = arn.account_id;
    first.access_key_id = arn.account_id;  // the namespace the link found it in
    replicas.push_back(std::move(first));
  }
  ReplicaDescription joining;
  joining.region_name = catalog.options.region;
  joining.status = ReplicaStatus::kCreating;
  joining.source_region = arn.region;
  joining.created_ms = now_ms;
  joining.account_id = catalog.options.account_id;
  joining.access_key_id = link->AccessKeyId();
  replicas.push_back(std::move(joining));

  // The source's schema, indexes and shared settings; the regional ones as given here.
  TableDescription copied = source.value();
  if (!copied.stream_specification) {
    copied.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  }
  CreateTableArgs made = ReplicaTableArgs(copied, replicas);
  made.tags = args.tags;
  made.sse_specification = args.sse_specification;
  if (args.table_class) made.table_class = args.table_class;
  made.deletion_protection_enabled = args.deletion_protection_enabled;
  made.resource_policy = args.resource_policy;
  // A table of the name here already: CreateTable's own answer ("Table already exists").
  auto created = create_table(made);
  if (!created.ok()) return created.error();
  if (Status admitted = link->AdmitReplica(arn.account_id, arn.region, arn.table_name, replicas);
      !admitted.ok()) {
    // Out of the set first, so its deletion announces nothing to members that never had it.
    (void)SetReplicas(catalog, args.table_name, {});
    drop_table(args.table_name);
    return admitted.error();
  }
  return created;
}

Status AdmitReplica(Catalog& catalog, const std::string& table_name,
                    const std::vector<ReplicaDescription>& replicas) {
  ReplicationLink* link = catalog.options.replication.get();
  if (link == nullptr) return Error::Internal("no replication link");
  TableDescription table;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(table_name, catalog.clock.NowMs());
    if (entry == nullptr) {
      return Error::TableResourceNotFound(table_name);
    }
    table = Catalog::Snapshot(*entry, catalog.clock.NowMs());
  }
  // The set the joining account read, but for its new member, must be the set here still.
  const std::string& here = catalog.options.region;
  std::vector<std::string> had;
  for (const ReplicaDescription& member : table.replicas) had.push_back(member.region_name);
  if (had.empty()) had.push_back(here);
  std::vector<std::string> read;
  const ReplicaDescription* added = nullptr;
  for (const ReplicaDescription& member : replicas) {
    if (std::find(had.begin(), had.end(), member.region_name) == had.end()) {
      if (added != nullptr) return ReplicaSetInUse();
      added = &member;
    } else {
      read.push_back(member.region_name);
    }
  }
  std::sort(had.begin(), had.end());
  std::sort(read.begin(), read.end());
  if (added == nullptr || had != read) return ReplicaSetInUse();
  if (Status usable = CheckSource(table, added->region_name, added->account_id); !usable.ok()) {
    return usable.error();
  }

  std::shared_ptr<TableItems> items;
  std::shared_ptr<ReplicaLog> log;
  auto outcome = CommitReplicaSet(catalog, table_name, replicas, &items, &log);
  if (!outcome.ok()) return outcome.error();
  link->Announce(here, table_name, outcome.value().replicas);
  // What the link's CreateReplica gives a replica made in this account: Time to Live and the
  // auto scaling settings, kept alike in every member.
  const std::vector<std::string> to{MemberAddress(*added)};
  if (!table.time_to_live_attribute.empty()) {
    const UpdateTimeToLiveArgs time_to_live{table_name, {table.time_to_live_attribute, true}, true};
    link->SyncTimeToLive(here, to, time_to_live);
  }
  if (!table.auto_scaling.empty()) link->SyncAutoScaling(here, to, table_name, table.auto_scaling);
  if (log) log->CopyTo(*items, to.front());
  return Ok{};
}

}  // namespace ddbd
