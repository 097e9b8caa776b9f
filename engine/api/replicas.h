// Global tables, version 2019.11.21 (issue 43): a table's replicas in other regions, what
// UpdateTable's ReplicaUpdates asks, and a change as it travels to another region. Plain values;
// the engine holds a table's replica set in its description (engine/api/tables.h), and reaches the
// other regions through a ReplicationLink (engine/api/replication_link.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddbd {

enum class ReplicaStatus : uint8_t { kCreating, kUpdating, kDeleting, kActive };

// A replica's own read capacity for one global index (ReplicaGlobalSecondaryIndex).
struct ReplicaIndexOverride {
  std::string index_name;
  std::optional<int64_t> read_capacity_units;
  std::optional<int64_t> max_read_request_units;
  bool operator==(const ReplicaIndexOverride&) const = default;
};

// One region of a global table, as every member describes it.
struct ReplicaDescription {
  std::string region_name;
  ReplicaStatus status = ReplicaStatus::kActive;
  std::optional<std::string> kms_master_key_id;
  std::optional<int64_t> read_capacity_units_override;     // ProvisionedThroughputOverride
  std::optional<int64_t> max_read_request_units_override;  // OnDemandThroughputOverride
  std::optional<std::string> table_class_override;    // "STANDARD" or "STANDARD_INFREQUENT_ACCESS"
  std::vector<ReplicaIndexOverride> index_overrides;  // by index, as given
  // Not on the wire: the region whose UpdateTable created it ("" for the first), and when: a
  // region that sourced a replica within 24 hours cannot be deleted while that replica exists.
  std::string source_region;
  int64_t created_ms = 0;
  // Not on the wire: when an UPDATING or DELETING status ends (--table-delay-ms after the change;
  // Catalog::Snapshot then shows the replica ACTIVE, or no longer lists it). CREATING ends when
  // the copy has arrived instead.
  int64_t status_until_ms = 0;
  bool operator==(const ReplicaDescription&) const = default;
};

// One entry of UpdateTable's ReplicaUpdates (a ReplicationGroupUpdate).
struct ReplicaUpdate {
  enum class Action : uint8_t { kCreate, kUpdate, kDelete };
  Action action = Action::kCreate;
  // How many of Create, Update and Delete the entry named: anything but 1 is refused.
  int actions_given = 1;
  ReplicaDescription replica;  // region and overrides (kDelete: the region only)
};

// The order in which writes to one item settle everywhere (last writer wins): the write's time,
// then its region's name. A copy made while a replica is created carries none (0, ""): any write
// beats it.
struct WriteVersion {
  int64_t time_us = 0;
  std::string region;
  auto operator<=>(const WriteVersion&) const = default;
};

// One table's items and deletions in one region, each with its version (Engine::ReplicaVersions).
using ReplicaVersionList = std::vector<std::pair<std::string, WriteVersion>>;

// The keys whose version `here` is newer than `there`, or that `there` lacks: the changes that
// never reached it (bringing regions level after a restart, server/replication.h Reconcile).
std::vector<std::string> KeysNewerThan(const ReplicaVersionList& here,
                                       const ReplicaVersionList& there);

// A committed change to a replicated table, as another region's engine applies it. `key` and
// `item` are the engine's own encodings (engine/model/key_codec.h, item_codec.h), passed between
// engines of one binary untouched.
struct ReplicatedWrite {
  std::string table_name;
  std::string key;
  std::string item;  // empty: the item was deleted
  uint32_t item_size = 0;
  WriteVersion version;
};

// ValidationException's text when a replica's region holds a table of the name, or already is a
// member (AWS-recorded, sic, with typographic quotes: DDB-TABLE-223).
inline std::string ReplicaExistsMessage(const std::string& table_name) {
  return "Failed to create a the new replica of table with name: \u2018" + table_name +
         "\u2019 because one or more replicas already existed as tables.";
}

}  // namespace ddbd
