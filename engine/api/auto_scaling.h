// A global table's auto scaling settings (UpdateTableReplicaAutoScaling and
// DescribeTableReplicaAutoScaling; issue 44, and issue 43's rule that a PROVISIONED table takes
// replicas only with write auto scaling). Kept, validated and described; nothing scales: a
// table's capacity stays what UpdateTable sets. Plain values, held in the table's description.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/durability.h"
#include "engine/api/replicas.h"

namespace ddbd {

enum class TableStatus;

// A target tracking policy (AutoScalingPolicyDescription).
struct AutoScalingPolicy {
  std::string policy_name;
  std::optional<bool> disable_scale_in;
  std::optional<int64_t> scale_in_cooldown;
  std::optional<int64_t> scale_out_cooldown;
  double target_value = 0;
  bool operator==(const AutoScalingPolicy&) const = default;
};

// One capacity dimension's settings (AutoScalingSettingsDescription).
struct AutoScalingSettings {
  int64_t minimum_units = 0;
  int64_t maximum_units = 0;
  bool disabled = false;
  std::optional<std::string> role_arn;
  std::vector<AutoScalingPolicy> policies;
  bool operator==(const AutoScalingSettings&) const = default;
};

// A change to one dimension (AutoScalingSettingsUpdate): what is given replaces what was.
struct AutoScalingUpdate {
  std::optional<int64_t> minimum_units;
  std::optional<int64_t> maximum_units;
  std::optional<bool> disabled;
  std::optional<std::string> role_arn;
  std::optional<AutoScalingPolicy> policy;  // its name may be empty: DynamoDB's default then
};

// One global index's settings for one dimension.
struct IndexAutoScaling {
  std::string index_name;
  AutoScalingSettings settings;
  bool operator==(const IndexAutoScaling&) const = default;
};

// A replica's own read settings (each region's, set from any).
struct RegionAutoScaling {
  std::string region_name;
  std::optional<AutoScalingSettings> read;
  std::vector<IndexAutoScaling> index_reads;
  bool operator==(const RegionAutoScaling&) const = default;
};

// Everything a table's description keeps, the same in every member of a global table: write
// settings are the table's (every replica's), read settings each region's.
struct TableAutoScaling {
  std::optional<AutoScalingSettings> write;
  std::vector<IndexAutoScaling> index_writes;
  std::vector<RegionAutoScaling> regions;
  bool empty() const { return !write && index_writes.empty() && regions.empty(); }
  bool operator==(const TableAutoScaling&) const = default;
};

struct UpdateTableReplicaAutoScalingArgs {
  struct Region {
    std::string region_name;
    std::optional<AutoScalingUpdate> read;
    std::vector<std::pair<std::string, AutoScalingUpdate>> index_reads;
  };
  std::string table_name;
  std::optional<AutoScalingUpdate> write;
  std::vector<std::pair<std::string, AutoScalingUpdate>> index_writes;
  std::vector<Region> regions;
};

// TableAutoScalingDescription: every member, each with its indexes' and its own settings.
struct ReplicaAutoScalingDescription {
  struct Index {
    std::string index_name;
    TableStatus index_status;
    std::optional<AutoScalingSettings> read;
    std::optional<AutoScalingSettings> write;
  };
  std::string region_name;
  ReplicaStatus replica_status = ReplicaStatus::kActive;
  std::vector<Index> indexes;
  std::optional<AutoScalingSettings> read;
  std::optional<AutoScalingSettings> write;
};

struct TableAutoScalingDescription {
  std::string table_name;
  TableStatus table_status;
  std::vector<ReplicaAutoScalingDescription> replicas;
  Ticket ticket;  // UpdateTableReplicaAutoScaling's change, which its answer waits for
};

}  // namespace ddbd
