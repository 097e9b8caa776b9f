// Exports, as engine/engine.h states their calls: each ExportTableToPointInTime is recorded
// IN_PROGRESS and run by the exports' own thread (started by the first), one at a time, while
// requests go on; it writes the table as it was at the export time
// (engine/exports/table_at_moment.h) into the bucket, in DynamoDB's layout
// (engine/exports/export_files.h), and ends COMPLETED or FAILED with the reason.
//
// With a store, each export is also a file under <db-path>/exports, rewritten as it ends: exports
// are described after a restart, and one a restart cut short is FAILED (its manifest, written
// last, never was: no reader takes its files for a whole export).
//
// Thread safety: every member may be called from any thread, except Load and UseItemLines.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/api/exports.h"
#include "engine/api/item_lines.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/exports/object_store.h"
#include "engine/persistence/file_system.h"

namespace ddbd {

class Exports {
 public:
  // `store`: where buckets are; it must outlive the exports.
  Exports(Catalog& catalog, ObjectStore& store);
  ~Exports();  // Stop()
  // Stops the thread; an export it was running stays IN_PROGRESS on disk. Before the store goes.
  void Stop();
  Exports(const Exports&) = delete;
  Exports& operator=(const Exports&) = delete;

  void UseItemLines(std::shared_ptr<const ItemLines> lines) { lines_ = std::move(lines); }
  // With a store: reads the exports kept under <db-path>/exports, failing those left running.
  Status Load(FileSystem& files);

  Result<ExportDescription> Start(const ExportTableArgs& args);
  Result<ExportDescription> Describe(const std::string& export_arn) const;
  Result<ListExportsResult> List(const ListExportsArgs& args) const;

  // Returns once no export is waiting or running (tests, tools).
  void WaitIdle() const;

 private:
  void Run();
  void Execute(const std::string& export_arn);
  // Under mutex_: keeps `description` (and, with a store, its file).
  void KeepLocked(const ExportDescription& description);

  Catalog& catalog_;
  ObjectStore& store_;
  std::shared_ptr<const ItemLines> lines_;
  FileSystem* files_ = nullptr;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::map<std::string, ExportDescription> exports_;  // by ARN
  std::deque<std::string> queue_;                     // ARNs waiting to run
  bool running_ = false;
  bool stopping_ = false;
  std::atomic<bool> stop_ = false;  // stopping_, read by a running export without the lock
  std::thread thread_;
};

}  // namespace ddbd
