// What a restored table is: the CreateTable arguments that recreate a backed-up (or point-in-time)
// table under a new name with RestoreTableFromBackup's and RestoreTableToPointInTime's overrides,
// checked as DynamoDB checks them ("Invalid Request: ..."). Kept, as DynamoDB keeps them: keys,
// indexes (all, or those the overrides match), billing and throughput, on-demand maxima and SSE.
// Dropped: the stream, Time to Live, point-in-time recovery, tags, deletion protection, the
// table class, resource policies and warm throughput.
#pragma once

#include <string>

#include "engine/api/tables.h"
#include "engine/backups/backups.h"
#include "engine/error.h"

namespace ddbd {

Result<CreateTableArgs> RestoredTableArgs(const TableDescription& source,
                                          const std::string& target_table_name,
                                          const RestoreOverrides& overrides);

}  // namespace ddbd
