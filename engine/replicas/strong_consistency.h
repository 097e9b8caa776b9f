// Multi-region strong consistency (MRSC, issue 44): the rules UpdateTable applies when it makes a
// global table STRONG (MultiRegionConsistency, GlobalTableWitnessUpdates) and when it changes
// the members of one. DynamoDB's rules as its documentation states them (the API reference's
// UpdateTable, GlobalTableWitnessGroupUpdate and Create/DeleteGlobalTableWitnessGroupMemberAction;
// the Developer Guide's MRSC considerations); the refusals' texts are not recorded, so the words
// are ddbd's (docs/behaviour.md lists them).
#pragma once

#include <string>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

// Whether the request is about MRSC at all: a mode or a witness given, or `table` is STRONG.
bool TouchesStrongConsistency(const UpdateTableArgs& args, const TableDescription& table);

// The request's shape (before any state): the mode only with replica Creates, a witness only
// with STRONG, three regions in one region set, the witness apart from the replicas.
Status CheckStrongShape(const UpdateTableArgs& args, const std::string& here);

// The table's state: a table becomes STRONG only while it is of its region alone, empty,
// without local secondary indexes or Time to Live; a STRONG table takes no new members, and
// leaves MRSC only by being left alone (a replica and the witness deleted together, or two
// replicas). `item_count`: the table's items now.
Status CheckStrongState(const UpdateTableArgs& args, const TableDescription& table,
                        int64_t item_count);

// The members a STRONG table's set gains from the request: the witness, if one is created.
std::vector<ReplicaDescription> WitnessesCreated(const UpdateTableArgs& args,
                                                 const std::string& here, int64_t now_ms);

// Time to Live, which an MRSC table does not support (the Developer Guide): refused.
Status RefuseTimeToLiveOnStrong(const TableDescription& table);

}  // namespace ddbd
