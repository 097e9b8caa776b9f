// Point-in-time recovery's restores: each table with it enabled keeps a history of what its
// changes replaced (engine/storage/point_in_time_history.h), attached and detached with the
// setting; RestoreTableToPointInTime copies the items and the undos of every later change in one
// hold of the table's read lock, undoes them newest first, and restores the result like a
// backup (engine/backups/restore.h).
#include "engine/backups/point_in_time.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "engine/backups/restore.h"

namespace ddbd {

Result<TableOutcome> RestoreTableToPointInTime(Catalog& catalog,
                                               const CreateTableCall& create_table,
                                               const RestoreTableToPointInTimeArgs& args) {
  const int64_t now_ms = catalog.clock.NowMs();
  TableDescription source;
  std::shared_ptr<TableItems> items;
  std::shared_ptr<PointInTimeHistory> history;
  int64_t moment_ms = 0;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry* entry = catalog.FindLocked(args.source_table_name, now_ms);
    if (entry == nullptr) {
      return Error::TableNotFound(args.source_table_name);
    }
    source = Catalog::Snapshot(*entry, now_ms);
    if (source.point_in_time_recovery_since_ms == 0 || !entry->history) {
      return Error{
          ErrorCode::kPointInTimeRecoveryUnavailable,
          "Point in time recovery is not enabled for table '" + args.source_table_name + "'"};
    }
    const ContinuousBackupsDescription window =
        DescribeRestorableWindow(source, entry->history->earliest_ms(),
                                 catalog.HistoryAgeMs(source), catalog.options.pitr_lag_ms, now_ms);
    moment_ms = args.use_latest_restorable_time ? window.latest_restorable_ms
                                                : args.restore_date_time_ms.value_or(0);
    if (moment_ms < window.earliest_restorable_ms || moment_ms > window.latest_restorable_ms) {
      return Error{ErrorCode::kInvalidRestoreTime,
                   "RestoreDateTime '" + IsoSeconds(moment_ms) +
                       "' must be within EarliestRestorableDateTime '" +
                       IsoSeconds(window.earliest_restorable_ms) +
                       "' and LatestRestorableDateTime '" +
                       IsoSeconds(window.latest_restorable_ms) + "'"};
    }
    items = entry->items;
    history = entry->history;
  }
  auto create = RestoredTableArgs(source, args.target_table_name, args.overrides);
  if (!create.ok()) return create.error();
  create.value().restore = RestoreSummary{"", source.table_arn, moment_ms, true};
  // The items as they are and the undos of later changes, as of one moment; then the undos,
  // newest first, take each item back to what it was at `moment_ms`.
  absl::flat_hash_map<std::string, StoredItem> restored;
  std::vector<PointInTimeHistory::Undo> undos;
  items->WalkAllThen(
      [&](std::string_view key, std::string_view blob, uint32_t size) {
        restored.emplace(std::string(key), StoredItem{std::string(blob), size});
        return true;
      },
      [&] { undos = history->UndosAfter(moment_ms); });
  for (PointInTimeHistory::Undo& undo : undos) {
    if (undo.before) {
      restored.insert_or_assign(std::move(undo.key), std::move(*undo.before));
    } else {
      restored.erase(undo.key);
    }
  }
  std::vector<StoredItem> loaded;
  loaded.reserve(restored.size());
  for (auto& entry : restored) loaded.push_back(std::move(entry.second));
  return RestoreInto(catalog, create_table, create.value(), loaded);
}

}  // namespace ddbd
