// Multi-account global tables (issue 44): a replica in this account of another account's table,
// made by CreateTable with GlobalTableSourceArn (and GlobalTableSettingsReplicationMode ENABLED),
// and the source's admission of it. DynamoDB's rules as the Developer Guide states them ("How
// DynamoDB multi-account global tables work"): multi-Region eventual consistency only; replicas
// added to a table of one Region or to a multi-account table, never to a same-account global
// table; one replica per account; settings kept alike in every member, none overridden. ddbd
// adds one rule of its own: one replica per Region (its members are told apart by Region). The
// refusals' texts are not recorded: the words are ddbd's, listed in docs/behaviour.md.
//
// On the server, an account is a namespace of --namespaces credentials: a 12-digit access key id
// is its own account, so the source ARN's account names the namespace that holds the source.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/tables.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

// DeleteTable as the table calls make it, handed in by the engine: a replica whose source would
// not admit it is removed again.
using DropTableCall = std::function<void(const std::string& table_name)>;

// CreateTable with GlobalTableSourceArn: the source checked through the link, the table made
// here with the source's schema, indexes and shared settings (and the regional ones given), then
// admitted by the source, which announces the new set to every member and copies its items here
// (the replica CREATING until they have arrived, then ACTIVE everywhere).
Result<TableOutcome> JoinGlobalTable(Catalog& catalog, const CreateTableCall& create_table,
                                     const DropTableCall& drop_table, const CreateTableArgs& args);

// The source's side (Engine::AdmitReplica): `replicas` is the table's set here with the new
// member added, as the joining account read it. Refused when the table changed meanwhile.
Status AdmitReplica(Catalog& catalog, const std::string& table_name,
                    const std::vector<ReplicaDescription>& replicas);

}  // namespace ddbd
