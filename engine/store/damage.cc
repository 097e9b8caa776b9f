// What a start does with a damaged log: by default refuses, naming what it found; under
// --wal-recovery-mode point-in-time replays up to the damage and moves the rest aside to
// <db-path>/lost/ (kept, never deleted: a person may still want it); and the report of every
// recovery, which goes to the operator's log either way.
#include <string>
#include <vector>

#include "engine/persistence/log_writer.h"
#include "engine/persistence/recovery.h"
#include "engine/store/store.h"

namespace ddbd {
namespace {

void Tell(const LogSink& log, Severity severity, const std::string& message) {
  if (log) log(severity, message);
}

}  // namespace

Status Store::ActOnDamage(const RecoveryPlan& plan, const std::vector<SegmentSummary>& segments) {
  if (plan.corruption.empty()) return Ok{};
  const std::string& directory = options_.db_path;
  if (options_.wal_recovery_mode != WalRecoveryMode::kPointInTime) {
    return Error::Internal(plan.corruption +
                           ". ddbd does not start with part of its data missing; to start from "
                           "the log up to this point and move the rest to " +
                           directory + "/lost/, start it with --wal-recovery-mode point-in-time");
  }
  FileSystem& files = *files_;
  const std::string lost = directory + "/lost";
  if (Status made = files.CreateDirectory(lost); !made.ok()) return made;
  const RecoveryPlan::Cut cut = *plan.cut;
  std::string moved;
  // The damaged segment's bytes from the damage on, copied aside, synced, then cut off.
  const SegmentSummary& damaged = segments[cut.index];
  const std::string damaged_path = directory + "/" + damaged.name;
  if (cut.offset == 0) {
    if (Status renamed = files.Rename(damaged_path, lost + "/" + damaged.name); !renamed.ok()) {
      return renamed;
    }
    moved = damaged.name + " (whole)";
  } else if (cut.offset < damaged.size) {
    auto bytes = files.ReadFile(damaged_path);
    if (!bytes.ok()) return bytes.error();
    const std::string aside = damaged.name + ".from-" + std::to_string(cut.offset);
    (void)files.Remove(lost + "/" + aside);  // an earlier attempt's, cut short
    auto copy = files.OpenAppendable(lost + "/" + aside);
    if (!copy.ok()) return copy.error();
    if (Status appended = copy.value()->Append(std::string_view(bytes.value()).substr(cut.offset));
        !appended.ok()) {
      return appended;
    }
    if (Status synced = copy.value()->Sync(); !synced.ok()) return synced;
    if (Status synced = files.SyncDirectory(lost); !synced.ok()) return synced;
    auto original = files.OpenAppendable(damaged_path);
    if (!original.ok()) return original.error();
    if (Status cut_off = original.value()->Truncate(cut.offset); !cut_off.ok()) return cut_off;
    if (Status synced = original.value()->Sync(); !synced.ok()) return synced;
    moved = damaged.name + " from offset " + std::to_string(cut.offset) + " (" +
            std::to_string(damaged.size - cut.offset) + " bytes, as " + aside + ")";
  }
  for (size_t i = cut.index + 1; i < segments.size(); ++i) {
    const std::string& name = segments[i].name;
    if (Status renamed = files.Rename(directory + "/" + name, lost + "/" + name); !renamed.ok()) {
      return renamed;
    }
    moved += (moved.empty() ? "" : ", ") + name + " (" + std::to_string(segments[i].size) +
             " bytes, " + std::to_string(segments[i].records) + " records)";
  }
  if (Status synced = files.SyncDirectory(lost); !synced.ok()) return synced;
  if (Status synced = files.SyncDirectory(directory); !synced.ok()) return synced;
  Tell(options_.log, Severity::kError,
       "point-in-time recovery: " + plan.corruption + ". Replayed the log up to it; moved to " +
           lost + "/: " + moved);
  return Ok{};
}

void Store::ReportRecovery(const RecoveryPlan& plan, const std::vector<SegmentSummary>& segments,
                           size_t records, size_t bytes, int64_t took_ms) const {
  const std::string& directory = options_.db_path;
  for (const RecoveryPlan::Torn& torn : plan.torn) {
    Tell(options_.log, Severity::kWarning,
         directory + "/" + segments[torn.index].name + ": ignored " + std::to_string(torn.bytes) +
             " bytes from offset " + std::to_string(torn.offset) + " (" + torn.what +
             "): a write cut short, never acknowledged");
  }
  std::string report = "recovered " + directory + ": " + std::to_string(records) + " records (" +
                       std::to_string(bytes) + " bytes) from " +
                       std::to_string(plan.replay.size()) +
                       (plan.replay.size() == 1 ? " segment" : " segments");
  if (!plan.replay.empty()) {
    report += " (" + segments[plan.replay.front().index].name;
    if (plan.replay.size() > 1) report += " to " + segments[plan.replay.back().index].name;
    report += ")";
  }
  if (plan.checkpoint) {
    report += ", starting at checkpoint " + segments[*plan.checkpoint].name;
    if (plan.skipped > 0) {
      report += " (" + std::to_string(plan.skipped) + " older segments it replaces not read)";
    }
  }
  if (!plan.torn.empty()) {
    report += ", " + std::to_string(plan.torn.size()) + " torn tail" +
              (plan.torn.size() == 1 ? "" : "s") + " ignored";
  }
  report += ", in " + std::to_string(took_ms) + " ms";
  Tell(options_.log, Severity::kInfo, report);
}

}  // namespace ddbd
