// Global tables, version 2019.11.21 (issue 43): a table's replicas in other regions, what
// UpdateTable's ReplicaUpdates asks, and a change as it travels to another region. Plain values;
// the engine holds a table's replica set in its description (engine/api/tables.h), and reaches the
// other regions through a ReplicationLink (engine/api/replication_link.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/error.h"

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
  // Multi-region strong consistency (MRSC): every member of such a global table is `strong` (a
  // global table's members share one mode, fixed when it is made). A `witness` is a member
  // without a table: it counts towards a write's quorum of two regions out of three, takes no
  // reads or writes, and is described as GlobalTableWitnesses rather than Replicas.
  bool strong = false;
  bool witness = false;
  // Multi-account global tables (every member of one names these; a same-account table's none):
  // the member's account, which its ReplicaArn names, and the access key id of the namespace its
  // table lives in (--namespaces credentials, where a 12-digit access key id is its own account).
  std::string account_id;
  std::string access_key_id;
  bool operator==(const ReplicaDescription&) const = default;
};

// GlobalTableSettingsReplicationMode: whether a global table's settings are kept alike in every
// member (ENABLED: a multi-account table's, none overridden), not (DISABLED), or with a
// replica's own overrides (ENABLED_WITH_OVERRIDES: a same-account table's).
enum class SettingsReplicationMode : uint8_t { kEnabled, kDisabled, kEnabledWithOverrides };

// Whether `text` is an AWS account id: 12 digits.
bool IsAccountId(std::string_view text);

// Whether the members are those of a multi-account global table.
bool MultiAccount(const std::vector<ReplicaDescription>& replicas);

// Where the ReplicationLink finds a member's table: its region, or for a member of a
// multi-account table "<access key id>/<region>" ('/' splits a request's credential scope, so
// neither holds one). And back: (access key id, region), a bare region being in the namespace of
// `own_access_key_id`.
std::string MemberAddress(const ReplicaDescription& replica);
std::pair<std::string, std::string> ParseMemberAddress(std::string_view address,
                                                       const std::string& own_access_key_id);

// The MRSC regions: a global table's three regions are in one of these sets (the API
// reference, CreateGlobalTableWitnessGroupMemberAction).
bool InOneStrongRegionSet(const std::vector<std::string>& regions);

// UpdateTable's MultiRegionConsistency, and one entry of its GlobalTableWitnessUpdates.
enum class MultiRegionConsistency : uint8_t { kEventual, kStrong };
struct WitnessUpdate {
  enum class Action : uint8_t { kCreate, kDelete };
  Action action = Action::kCreate;
  int actions_given = 1;  // how many of Create and Delete the entry named
  std::string region_name;
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

// A STRONG global table's other members, as a write or a strongly consistent read here checks
// them (ReplicationLink::BeginStrongWrite, CheckStrongRead): the replicas' regions, and the
// witness's ("" without one).
struct StrongMembers {
  std::string table_name;
  std::vector<std::string> replicas;
  std::string witness;
};

// A write to an item another region's write is changing, or whose last change has not reached
// this region yet (the text is the API reference's description of the error).
inline Error ReplicatedWriteConflict() {
  return Error{ErrorCode::kReplicatedWriteConflict,
               "The request was rejected because one or more items in the request are being "
               "modified by a request in another Region."};
}
// A write or a strongly consistent read in a region that reaches no other member (no quorum of
// two): what DynamoDB answers is not recorded; ddbd answers the 500 a lost region's endpoint
// would, which SDKs retry.
inline Error StrongRegionUnavailable() { return Error::Internal("Internal server error"); }

// TransactWriteItems and TransactGetItems naming a STRONG global table's table: MRSC does not
// support transactions (the Developer Guide); the text is ddbd's.
inline Error StrongTransactionRefused(const std::string& table_name) {
  return Error::Validation(
      "One or more parameter values were invalid: transactions are not supported on a global "
      "table with MultiRegionConsistency STRONG: " +
      table_name);
}

// ValidationException's text when a replica's region holds a table of the name, or already is a
// member (AWS-recorded, sic, with typographic quotes: DDB-TABLE-223).
inline std::string ReplicaExistsMessage(const std::string& table_name) {
  return "Failed to create a the new replica of table with name: \u2018" + table_name +
         "\u2019 because one or more replicas already existed as tables.";
}

}  // namespace ddbd
