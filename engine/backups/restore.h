// What a restored table is: the CreateTable arguments that recreate a backed-up (or point-in-time)
// table under a new name with RestoreTableFromBackup's and RestoreTableToPointInTime's overrides,
// checked as DynamoDB checks them ("Invalid Request: ..."). Kept, as DynamoDB keeps them: keys,
// indexes (all, or those the overrides match), billing and throughput, on-demand maxima and SSE.
// Dropped: the stream, Time to Live, point-in-time recovery, tags, deletion protection, the
// table class, resource policies and warm throughput.
#pragma once

#include <string>
#include <vector>

#include "engine/api/backups.h"
#include "engine/api/tables.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/storage/item_records.h"

namespace ddbd {

Result<CreateTableArgs> RestoredTableArgs(const TableDescription& source,
                                          const std::string& target_table_name,
                                          const RestoreOverrides& overrides);

// Creates the table `args` describes (with its restore summary: CREATING) through CreateTable's
// path, fills it with `items` through the commit path, then lets it go ACTIVE.
// TableAlreadyExistsException for a name in use.
Result<TableOutcome> RestoreInto(Catalog& catalog, const CreateTableCall& create_table,
                                 const CreateTableArgs& args, const std::vector<StoredItem>& items);

}  // namespace ddbd
