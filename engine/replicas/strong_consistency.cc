#include "engine/replicas/strong_consistency.h"

#include <algorithm>

#include "engine/replicas/replica_updates.h"

namespace ddbd {
namespace {

bool IsStrong(const TableDescription& table) {
  return std::any_of(table.replicas.begin(), table.replicas.end(),
                     [](const ReplicaDescription& replica) { return replica.strong; });
}

// The regions the request creates replicas in, each once.
std::vector<std::string> RegionsCreated(const UpdateTableArgs& args) {
  std::vector<std::string> regions;
  for (const ReplicaUpdate& update : args.replica_updates) {
    if (update.action != ReplicaUpdate::Action::kCreate) continue;
    const std::string& region = update.replica.region_name;
    if (std::find(regions.begin(), regions.end(), region) == regions.end()) {
      regions.push_back(region);
    }
  }
  return regions;
}

size_t Count(const UpdateTableArgs& args, WitnessUpdate::Action action) {
  return static_cast<size_t>(
      std::count_if(args.witness_updates.begin(), args.witness_updates.end(),
                    [action](const WitnessUpdate& update) { return update.action == action; }));
}

}  // namespace

bool TouchesStrongConsistency(const UpdateTableArgs& args, const TableDescription& table) {
  return args.multi_region_consistency || !args.witness_updates.empty() || IsStrong(table);
}

Status CheckStrongShape(const UpdateTableArgs& args, const std::string& here) {
  for (const WitnessUpdate& update : args.witness_updates) {
    if (update.actions_given != 1) {
      return Error::Validation(std::string(kInvalidParameterValues) +
                               "a GlobalTableWitnessUpdates entry names one of Create and Delete");
    }
  }
  const std::vector<std::string> created = RegionsCreated(args);
  if (args.multi_region_consistency && created.empty()) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "MultiRegionConsistency can only be given with ReplicaUpdates that "
                             "create replicas");
  }
  const bool strong = args.multi_region_consistency == MultiRegionConsistency::kStrong;
  const size_t witnesses = Count(args, WitnessUpdate::Action::kCreate);
  if (witnesses > 0 && !strong) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "a witness can only be created with a new global table whose "
                             "MultiRegionConsistency is STRONG");
  }
  if (!strong) return Ok{};
  const bool only_creates = std::all_of(
      args.replica_updates.begin(), args.replica_updates.end(),
      [](const ReplicaUpdate& update) { return update.action == ReplicaUpdate::Action::kCreate; });
  if (!only_creates || created.size() + witnesses != 2 ||
      Count(args, WitnessUpdate::Action::kDelete) > 0) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "a global table with MultiRegionConsistency STRONG is made with "
                             "exactly three Regions: this one and two replicas created, or this "
                             "one, one replica created and one witness");
  }
  std::vector<std::string> regions = created;
  regions.push_back(here);
  for (const WitnessUpdate& update : args.witness_updates) {
    if (std::find(regions.begin(), regions.end(), update.region_name) != regions.end()) {
      return Error::Validation(
          std::string(kInvalidParameterValues) +
          "the witness must be in a Region other than the replicas': " + update.region_name);
    }
    regions.push_back(update.region_name);
  }
  if (!InOneStrongRegionSet(regions)) {
    return Error::Validation(
        std::string(kInvalidParameterValues) +
        "the Regions of a global table with MultiRegionConsistency STRONG must all be in one "
        "Region set: us-east-1, us-east-2, us-west-2; eu-west-1, eu-west-2, eu-west-3, "
        "eu-central-1; or ap-northeast-1, ap-northeast-2, ap-northeast-3");
  }
  return Ok{};
}

Status CheckStrongState(const UpdateTableArgs& args, const TableDescription& table,
                        int64_t item_count) {
  const bool strong_table = IsStrong(table);
  if (args.multi_region_consistency) {
    if (!table.replicas.empty()) {
      return Error::Validation(std::string(kInvalidParameterValues) +
                               "MultiRegionConsistency can only be given when a table becomes a "
                               "global table; a global table's mode cannot be changed");
    }
    if (args.multi_region_consistency == MultiRegionConsistency::kStrong) {
      if (item_count > 0) {
        return Error::Validation(std::string(kInvalidParameterValues) +
                                 "a table must be empty to become a global table with "
                                 "MultiRegionConsistency STRONG");
      }
      const bool local_index =
          std::any_of(table.indexes.begin(), table.indexes.end(),
                      [](const IndexDescription& index) { return !index.is_global; });
      if (local_index) {
        return Error::Validation(std::string(kInvalidParameterValues) +
                                 "a global table with MultiRegionConsistency STRONG cannot have "
                                 "local secondary indexes");
      }
      if (!table.time_to_live_attribute.empty()) {
        return Error::Validation(std::string(kInvalidParameterValues) +
                                 "a global table with MultiRegionConsistency STRONG does not "
                                 "support Time to Live: disable it first");
      }
    }
    return Ok{};
  }
  const size_t witness_deletes = Count(args, WitnessUpdate::Action::kDelete);
  if (!strong_table) {
    if (witness_deletes > 0) {
      std::vector<std::string> regions;
      for (const WitnessUpdate& update : args.witness_updates)
        regions.push_back(update.region_name);
      return Error::Validation(NotMembersMessage(regions));
    }
    return Ok{};
  }
  // A STRONG table: its members are fixed, but for leaving MRSC altogether.
  if (!RegionsCreated(args).empty() || Count(args, WitnessUpdate::Action::kCreate) > 0) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "no replica or witness can be added to a global table with "
                             "MultiRegionConsistency STRONG");
  }
  size_t replica_deletes = 0;
  for (const ReplicaUpdate& update : args.replica_updates) {
    if (update.action == ReplicaUpdate::Action::kDelete) ++replica_deletes;
  }
  const bool has_witness =
      std::any_of(table.replicas.begin(), table.replicas.end(),
                  [](const ReplicaDescription& replica) { return replica.witness; });
  for (const WitnessUpdate& update : args.witness_updates) {
    const bool named = std::any_of(
        table.replicas.begin(), table.replicas.end(), [&](const ReplicaDescription& replica) {
          return replica.witness && replica.region_name == update.region_name;
        });
    if (!named) return Error::Validation(NotMembersMessage({update.region_name}));
  }
  if (replica_deletes == 0 && witness_deletes == 0) return Ok{};
  const bool leaves_one = has_witness ? replica_deletes == 1 && witness_deletes == 1
                                      : replica_deletes == 2 && witness_deletes == 0;
  if (!leaves_one) {
    return Error::Validation(std::string(kInvalidParameterValues) +
                             "members leave a global table with MultiRegionConsistency STRONG "
                             "only together, leaving a table of one Region: a replica and the "
                             "witness, or two replicas");
  }
  return Ok{};
}

std::vector<ReplicaDescription> WitnessesCreated(const UpdateTableArgs& args,
                                                 const std::string& here, int64_t now_ms) {
  std::vector<ReplicaDescription> witnesses;
  for (const WitnessUpdate& update : args.witness_updates) {
    if (update.action != WitnessUpdate::Action::kCreate) continue;
    ReplicaDescription witness;
    witness.region_name = update.region_name;
    witness.strong = true;
    witness.witness = true;
    witness.source_region = here;
    witness.created_ms = now_ms;
    witnesses.push_back(std::move(witness));
  }
  return witnesses;
}

Status RefuseTimeToLiveOnStrong(const TableDescription& table) {
  if (!IsStrong(table)) return Ok{};
  return Error::Validation(std::string(kInvalidParameterValues) +
                           "Time to Live is not supported on a global table with "
                           "MultiRegionConsistency STRONG");
}

}  // namespace ddbd
