// Imports, as engine/engine.h states their calls: ImportTable creates its table at once
// (CREATING, through CreateTable's path and checks) and records the import IN_PROGRESS; the
// imports' own thread (started by the first) reads the bucket's objects under the prefix (a raw
// key prefix, as S3 lists), decompresses them, reads each line as an item (DynamoDB JSON or CSV)
// and loads the items through the commit path in batches, then lets the table go ACTIVE and the
// import COMPLETED. A line that is not an item, or whose item the table refuses (keys missing or
// mistyped, over 400 KB), is counted (ErrorCount) and skipped, and the import ends FAILED
// (ItemValidationError) with the valid items in the table, as DynamoDB ends one. A bucket or file
// that cannot be read FAILS the import and deletes its table.
//
// With a store, each import is a file under <db-path>/imports; one a restart cut short is FAILED
// (the store drops its table: engine/store/store.cc).
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

#include "engine/api/imports.h"
#include "engine/api/item_lines.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/exports/object_store.h"
#include "engine/persistence/file_system.h"

namespace ddbd {

class Imports {
 public:
  Imports(Catalog& catalog, ObjectStore& store, CreateTableCall create_table);
  ~Imports();  // Stop()
  Imports(const Imports&) = delete;
  Imports& operator=(const Imports&) = delete;
  void Stop();

  void UseItemLines(std::shared_ptr<const ItemLines> lines) { lines_ = std::move(lines); }
  Status Load(FileSystem& files);

  Result<ImportTableDescription> Start(const ImportTableArgs& args);
  Result<ImportTableDescription> Describe(const std::string& import_arn) const;
  Result<ListImportsResult> List(const ListImportsArgs& args) const;
  void WaitIdle() const;

 private:
  void Run();
  void Execute(const std::string& import_arn);
  void KeepLocked(const ImportTableDescription& description);

  Catalog& catalog_;
  ObjectStore& store_;
  CreateTableCall create_table_;
  std::shared_ptr<const ItemLines> lines_;
  FileSystem* files_ = nullptr;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::map<std::string, ImportTableDescription> imports_;  // by ARN
  std::map<std::string, ImportTableArgs> waiting_;         // the arguments of those queued
  std::deque<std::string> queue_;
  bool running_ = false;
  bool stopping_ = false;
  std::atomic<bool> stop_ = false;
  std::thread thread_;
};

}  // namespace ddbd
