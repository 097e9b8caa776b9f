// The storage engine's front door: the catalog of tables and (later) their items. The engine
// never sees JSON, HTTP or configuration; server/main.cc hands it EngineOptions.
//
// Thread safety: every public member may be called from any thread. The catalog is guarded by a
// reader/writer lock; table operations are rare next to item operations.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/error.h"
#include "engine/table_schema.h"

namespace ddbd {

struct EngineOptions {
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  // How long a table stays CREATING, UPDATING or DELETING. 0: transitions are immediate.
  int64_t table_delay_ms = 0;
};

class Engine {
 public:
  // `clock` must outlive the engine.
  Engine(EngineOptions options, const Clock& clock);

  // ValidationException for an invalid schema; ResourceInUseException if the name is taken.
  Result<TableDescription> CreateTable(const CreateTableArgs& args);
  // ResourceNotFoundException if there is no such table.
  Result<TableDescription> DescribeTable(std::string_view table_name) const;
  ListTablesResult ListTables(const ListTablesArgs& args) const;
  // ValidationException for an invalid or empty update, ResourceNotFoundException,
  // ResourceInUseException while the table is not ACTIVE.
  Result<TableDescription> UpdateTable(const UpdateTableArgs& args);
  // ResourceNotFoundException, ResourceInUseException while CREATING, ValidationException when
  // deletion protection is enabled.
  Result<TableDescription> DeleteTable(std::string_view table_name);

  const EngineOptions& options() const { return options_; }
  std::string TableArn(std::string_view table_name) const;

 private:
  struct TableEntry {
    TableDescription description;
    int64_t transition_done_ms = 0;  // when a CREATING/UPDATING/DELETING status ends
  };

  // The entry's description with its status as of `now_ms`.
  static TableDescription Snapshot(const TableEntry& entry, int64_t now_ms);
  // True once a DELETING table's deletion has completed: it no longer exists.
  static bool IsGone(const TableEntry& entry, int64_t now_ms);
  // Looks a live table up; caller holds mutex_. Null if absent or gone.
  const TableEntry* FindLocked(std::string_view table_name, int64_t now_ms) const;
  void PurgeGoneLocked(int64_t now_ms);

  EngineOptions options_;
  const Clock& clock_;
  mutable std::shared_mutex mutex_;
  // Ordered by name: ListTables pages in DynamoDB's (byte-wise) name order.
  std::map<std::string, std::unique_ptr<TableEntry>, std::less<>> tables_;
};

}  // namespace ddbd
