// Global tables, version 2017.11.29 (legacy; issue 44): CreateGlobalTable joins identical empty
// tables the caller made in each region into one global table; UpdateGlobalTable adds or removes
// a region's table; DescribeGlobalTable and ListGlobalTables describe them. The members replicate
// as the current version's do (last writer wins); the group is kept in each member's description
// (TableDescription::replicas, with legacy_global_table_created_ms set).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/durability.h"

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

}  // namespace ddbd
