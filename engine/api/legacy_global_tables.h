// Global tables, version 2017.11.29 (legacy; issue 44): CreateGlobalTable joins identical empty
// tables the caller made in each region into one global table; UpdateGlobalTable adds or removes
// a region's table; DescribeGlobalTable and ListGlobalTables describe them;
// DescribeGlobalTableSettings and UpdateGlobalTableSettings describe and change every member's
// capacity settings at once. The members replicate
// as the current version's do (last writer wins); the group is kept in each member's description
// (TableDescription::replicas, with legacy_global_table_created_ms set).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/auto_scaling.h"
#include "engine/api/durability.h"
#include "engine/api/tables.h"

namespace ddbd {

struct CreateGlobalTableArgs {
  std::string global_table_name;
  std::vector<std::string> replication_group;  // region names, as given
};

struct UpdateGlobalTableArgs {
  struct Update {
    std::optional<std::string> create;  // ReplicaUpdate's Create RegionName
    std::optional<std::string> remove;  // its Delete RegionName
  };
  std::string global_table_name;
  std::vector<Update> replica_updates;
};

// GlobalTableDescription (GlobalTableStatus is always ACTIVE: the changes are immediate).
struct GlobalTableDescription {
  std::string global_table_name;
  std::string global_table_arn;  // arn:aws:dynamodb::ACCOUNT:global-table/NAME
  int64_t creation_date_time_ms = 0;
  std::vector<std::string> replication_group;
  Ticket ticket;  // Create and Update: this region's change, which the answer waits for
};

struct ListGlobalTablesArgs {
  std::optional<std::string> exclusive_start_global_table_name;
  std::optional<int64_t> limit;
  std::optional<std::string> region_name;  // only global tables with a replica there
};

struct ListGlobalTablesResult {
  // By name: each global table's regions.
  std::vector<std::pair<std::string, std::vector<std::string>>> global_tables;
  std::optional<std::string> last_evaluated_global_table_name;
};

// UpdateGlobalTableSettings: the billing mode and write settings of every member (the table's and
// each global index's), and each member's own read settings and table class.
struct UpdateGlobalTableSettingsArgs {
  struct IndexWrites {  // GlobalTableGlobalSecondaryIndexSettingsUpdate
    std::string index_name;
    std::optional<int64_t> write_capacity_units;
    std::optional<AutoScalingUpdate> write_auto_scaling;
  };
  struct IndexReads {  // ReplicaGlobalSecondaryIndexSettingsUpdate
    std::string index_name;
    std::optional<int64_t> read_capacity_units;
    std::optional<AutoScalingUpdate> read_auto_scaling;
  };
  struct Replica {  // ReplicaSettingsUpdate
    std::string region_name;
    std::optional<int64_t> read_capacity_units;
    std::optional<AutoScalingUpdate> read_auto_scaling;
    std::vector<IndexReads> indexes;
    std::optional<TableClass> table_class;
  };
  std::string global_table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<int64_t> write_capacity_units;
  std::optional<AutoScalingUpdate> write_auto_scaling;
  std::vector<IndexWrites> indexes;
  std::vector<Replica> replicas;
};

// ReplicaSettingsDescription: one member's settings as its region describes its table.
struct ReplicaSettingsDescription {
  struct Index {  // ReplicaGlobalSecondaryIndexSettingsDescription
    std::string index_name;
    TableStatus index_status = TableStatus::kActive;
    ProvisionedThroughput provisioned_throughput;  // zeros for an on-demand table: not described
    std::optional<AutoScalingSettings> read_auto_scaling;
    std::optional<AutoScalingSettings> write_auto_scaling;
  };
  std::string region_name;
  ReplicaStatus replica_status = ReplicaStatus::kActive;
  BillingMode billing_mode = BillingMode::kProvisioned;
  int64_t last_update_to_pay_per_request_ms = 0;  // 0: never
  ProvisionedThroughput provisioned_throughput;   // zeros for an on-demand table
  std::optional<AutoScalingSettings> read_auto_scaling;
  std::optional<AutoScalingSettings> write_auto_scaling;
  std::vector<Index> indexes;
  std::optional<TableClass> table_class;  // present once set
  int64_t table_class_last_update_ms = 0;
};

struct GlobalTableSettingsDescription {
  std::string global_table_name;
  std::vector<ReplicaSettingsDescription> replica_settings;
  Ticket ticket;  // UpdateGlobalTableSettings: this region's changes, which the answer waits for
};

}  // namespace ddbd
