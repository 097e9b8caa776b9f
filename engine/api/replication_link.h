// The link through which one region's engine reaches the others' (global tables, issue 43): the
// server gives each engine one (EngineOptions::replication; server/replication.h), which knows
// where the other regions' engines are and applies changes there after the replication delay.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/tables.h"
#include "engine/api/time_to_live.h"
#include "engine/error.h"

namespace ddbd {

// What an engine asks of the other regions (EngineOptions::replication). Calls come from request
// threads; Replicate comes from inside a commit and must only queue. A member is named by its
// address (MemberAddress, engine/api/replicas.h): its region, or for a member of a
// multi-account global table its access key id and region.
class ReplicationLink {
 public:
  virtual ~ReplicationLink() = default;
  // The access key id whose namespace this link serves ("" for one database per region).
  virtual const std::string& AccessKeyId() const = 0;
  // Empty when replicas can be made here; else why not (one database for every region).
  virtual std::string Unavailable() const = 0;
  // Makes `table` (its schema, indexes and settings) at `member`, empty, as a member of the
  // replica set `replicas`. ValidationException "Failed to create a the new replica ..." when
  // that region holds a table of the name.
  virtual Status CreateReplica(const std::string& member, const TableDescription& table,
                               const std::vector<ReplicaDescription>& replicas) = 0;
  // Deletes the table at `member` (a replica leaving the set).
  virtual Status DeleteReplica(const std::string& member, const std::string& table_name) = 0;
  // Sets the replica set every member other than `from_region` describes (a member being
  // removed, DELETING, has left already: its table is going).
  virtual void Announce(const std::string& from_region, const std::string& table_name,
                        const std::vector<ReplicaDescription>& replicas) = 0;
  // A change of the settings DynamoDB keeps alike in every member (Time to Live; the billing
  // mode, capacities and global indexes of UpdateTable) made in `from_region`: made at once in
  // each member of `to`, as that region's own call with these arguments (`from_replica` set, so
  // it goes no further). A member that refuses it is left as it is.
  virtual void SyncTimeToLive(const std::string& from_region, const std::vector<std::string>& to,
                              const UpdateTimeToLiveArgs& args) = 0;
  virtual void SyncTableUpdate(const std::string& from_region, const std::vector<std::string>& to,
                               const UpdateTableArgs& args) = 0;
  // The table's auto scaling settings as UpdateTableReplicaAutoScaling left them in
  // `from_region`: set in each member of `to` (Engine::SetReplicaAutoScaling).
  virtual void SyncAutoScaling(const std::string& from_region, const std::vector<std::string>& to,
                               const std::string& table_name, const TableAutoScaling& settings) = 0;
  // Version 2017.11.29 (legacy global tables): `region`'s table of the name as DescribeTable
  // answers there (ResourceNotFoundException when it has none); and its membership of a global
  // table set there, `group` since `created_ms` (an empty group and 0: it leaves).
  virtual Result<TableDescription> DescribeMember(const std::string& region,
                                                  const std::string& table_name) = 0;
  virtual Status SetLegacyGlobalTable(const std::string& region, const std::string& table_name,
                                      const std::vector<std::string>& group,
                                      int64_t created_ms) = 0;
  // Version 2017.11.29's UpdateGlobalTableSettings: `region`'s table changed as UpdateTable there
  // changes it (its refusal returned; nothing is passed on: that version keeps nothing alike).
  virtual Status UpdateMember(const std::string& region, const UpdateTableArgs& args) = 0;
  // Queues `write` for each member in `to`, after the replication delay, in order per member.
  virtual void Replicate(const std::string& from_region, const std::vector<std::string>& to,
                         ReplicatedWrite write) = 0;
  // Multi-region strong consistency (MRSC; engine/replicas/strong_consistency.h). Before a write
  // of `key` in `region` to a STRONG table with `members`: StrongRegionUnavailable when no other
  // member is reachable both ways (paused replication cuts a pair), ReplicatedWriteConflict when
  // another region's write of the item is in flight or its change has not reached `region`;
  // else the item is claimed for `region` until EndStrongWrite, which every successful Begin
  // must be followed by (whether or not the write then committed): it applies the table's
  // changes queued from `region` in every member its replication is not paused to, at once
  // (not after the replication delay), so the write's answer follows its arrival there.
  virtual Status BeginStrongWrite(const std::string& region, const StrongMembers& members,
                                  std::string_view key) = 0;
  virtual void EndStrongWrite(const std::string& region, const StrongMembers& members,
                              std::string_view key) = 0;
  // Before a strongly consistent read in `region`: StrongRegionUnavailable when no other member
  // is reachable, or a change of the table is held on its way here (paused replication), which
  // the read would miss.
  virtual Status CheckStrongRead(const std::string& region, const StrongMembers& members) = 0;
  // Queues, after the writes queued to `to` so far, the news that `to`'s copy of the table is
  // complete: its replica turns ACTIVE everywhere.
  virtual void CopyQueued(const std::string& from_region, const std::string& to,
                          const std::string& table_name) = 0;
  // Multi-account global tables (engine/replicas/multi_account.h). The table of the name in
  // `account_id`'s namespace in `region` (a 12-digit access key id is its own account), as
  // DescribeTable answers there; ValidationException when the server keeps no namespace per
  // access key id. And that table's admission of a new member: its replica set becomes
  // `replicas` (the new member's table made already), announced to every member, and its items
  // are copied to the new one (Engine::AdmitReplica).
  virtual Result<TableDescription> DescribeInAccount(const std::string& account_id,
                                                     const std::string& region,
                                                     const std::string& table_name) = 0;
  virtual Status AdmitReplica(const std::string& account_id, const std::string& region,
                              const std::string& table_name,
                              const std::vector<ReplicaDescription>& replicas) = 0;
};

}  // namespace ddbd
