// Point-in-time recovery, as engine/engine.h states its calls: its settings (part of the table's
// description, changed through the catalog's one path, so logged) and restores to a moment of
// the table's history (engine/storage/point_in_time_history.h).
#pragma once

#include <string>

#include "engine/api/backups.h"
#include "engine/api/continuous_backups.h"
#include "engine/api/tables.h"
#include "engine/backups/restore.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

Result<ContinuousBackupsDescription> DescribeContinuousBackups(const Catalog& catalog,
                                                               const std::string& table_name);
Result<ContinuousBackupsOutcome> UpdateContinuousBackups(Catalog& catalog,
                                                         const UpdateContinuousBackupsArgs& args);
Result<TableOutcome> RestoreTableToPointInTime(Catalog& catalog,
                                               const CreateTableCall& create_table,
                                               const RestoreTableToPointInTimeArgs& args);

}  // namespace ddbd
