// Global tables, version 2019.11.21 (issue 43), over the catalog: UpdateTable's ReplicaUpdates,
// the replica set the other regions announce, and the changes they send (applied when newer than
// what is here: last writer wins). The other regions are reached through the catalog's options'
// ReplicationLink, never while the catalog's lock is held (their engines may be calling here).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/tables.h"
#include "engine/api/time_to_live.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

// UpdateTable with ReplicaUpdates: one replica created (the table made in its region, its items
// copied there through the link), updated or deleted; DynamoDB's refusals with its texts.
Result<TableOutcome> UpdateReplicas(Catalog& catalog, const UpdateTableArgs& args);

// Commits the table's new replica set here (enabling its stream if it has none: replication
// reads it, and DynamoDB enables NEW_AND_OLD_IMAGES), answering the table as described after;
// its items and replica log handed back when asked for (a new member's copy is taken from them).
// A set of this region alone leaves a table of this region.
Result<TableOutcome> CommitReplicaSet(Catalog& catalog, const std::string& table_name,
                                      std::vector<ReplicaDescription> replicas,
                                      std::shared_ptr<TableItems>* items,
                                      std::shared_ptr<ReplicaLog>* log);

// The table's replica set as another region announces it; one member left (this one) or none
// makes it a table of this region alone again.
Status SetReplicas(Catalog& catalog, const std::string& table_name,
                   std::vector<ReplicaDescription> replicas);

// `region`'s replica of the table is now `status` (a copy complete: ACTIVE).
Status SetReplicaStatus(Catalog& catalog, const std::string& table_name, const std::string& region,
                        ReplicaStatus status);

// Applies another region's change unless the item here has a later version. False when it was
// not applied (older, or the table is not a replica here any more).
Result<bool> ApplyReplicatedWrite(Catalog& catalog, const ReplicatedWrite& write);

// After a change made here by the table's own call (not one another member passed on): the
// settings DynamoDB keeps alike in every member of a global table made in the other members
// through the link. Time to Live; of UpdateTable, the billing mode, provisioned and on-demand
// throughput, warm throughput and global secondary indexes (with the attribute definitions they
// name); the rest (stream, encryption, table class, deletion protection, vector indexes) stays
// this region's.
void SyncTimeToLive(const Catalog& catalog, const UpdateTimeToLiveArgs& args);
void SyncTableUpdate(const Catalog& catalog, const UpdateTableArgs& args);

// After a restart, to bring the regions level (server/replication.h Reconcile). The replicated
// tables here; a table's items' and deletions' versions (the zero version for an item written
// before the table had replicas; none for a table that is not replicated here); its items with
// `keys` queued for the member at address `member` (MemberAddress) as they are now; and each copy
// to a new replica created from here that a stop cut short, queued again whole.
std::vector<std::string> ReplicatedTables(const Catalog& catalog);
ReplicaVersionList ReplicaVersionsOf(const Catalog& catalog, const std::string& table_name);
void ResendReplicaItems(const Catalog& catalog, const std::string& table_name,
                        const std::string& member, const std::vector<std::string>& keys);
void ResumeReplicaCopies(const Catalog& catalog);

// ResourceInUseException (AWS-recorded text) while the table or one of its replicas is not
// ACTIVE: its replica set takes no change then.
Error ReplicaSetInUse();
Status CheckReplicasSettled(const TableDescription& table);

// ValidationException's text for regions that are not members of the table (AWS-recorded).
std::string NotMembersMessage(const std::vector<std::string>& regions);

// After the table left this region (DeleteTable): the other members list it DELETING for
// --table-delay-ms (Catalog::SettleReplicas then drops it), or at once without it.
void AnnounceDeparture(const Catalog& catalog, const TableDescription& table);

}  // namespace ddbd
