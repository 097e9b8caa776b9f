// The storage engine's front door: the catalog of tables and (later) their items. The engine
// never sees JSON, HTTP or configuration; server/main.cc hands it EngineOptions.
//
// Thread safety: every public member may be called from any thread. The catalog is guarded by a
// reader/writer lock; table operations are rare next to item operations.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/table_schema.h"
#include "engine/clock.h"
#include "engine/error.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "engine/model/attribute_value.h"
#include "engine/model/item_key.h"
#include "engine/read_operations.h"
#include "engine/storage/table_indexes.h"
#include "engine/storage/table_items.h"

namespace ddbd {

struct EngineOptions {
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  // How long a table stays CREATING, UPDATING or DELETING. 0: transitions are immediate.
  int64_t table_delay_ms = 0;
  // The most an item collection (a partition's items and LSI entries) may hold: 10 GB.
  int64_t item_collection_limit_bytes = int64_t{10} << 30;
};

struct ReadTarget;  // engine/read_operations.cc

// One write of a BatchWriteItem: put `item`, or delete the item whose Key is `item`.
struct WriteRequest {
  enum class Kind { kPut, kDelete };
  std::string table_name;
  Kind kind = Kind::kPut;
  Item item;
};

// One key of a BatchGetItem.
struct GetRequest {
  std::string table_name;
  Item key;
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

  // Item operations. All return ResourceNotFoundException "Requested resource not found" for a
  // missing table and ValidationException for an invalid key or an item over 400 KB.
  // PutItem and DeleteItem return the item they replaced or removed when `return_old` is set.
  // With a `condition`, the write happens only if it holds for the current item (atomically);
  // otherwise ConditionalCheckFailedException, with the current item if
  // `return_item_on_condition_failure`.
  struct WriteOptions {
    bool return_old = false;
    const Condition* condition = nullptr;
    bool return_item_on_condition_failure = false;
  };
  Result<std::optional<Item>> PutItem(std::string_view table_name, const Item& item,
                                      const WriteOptions& options);
  // The stored item (decode with DecodeItem, or encode the blob as it is).
  Result<std::optional<StoredItem>> GetItem(std::string_view table_name, const Item& key) const;
  Result<std::optional<Item>> DeleteItem(std::string_view table_name, const Item& key,
                                         const WriteOptions& options);
  // What UpdateItem returns: nothing, the whole item before or after, or only the updated
  // attributes before or after.
  enum class UpdateReturn { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };
  // Applies `actions` to the item with `key`, creating it if absent (upsert). ValidationException
  // for an update of a key attribute, an invalid path or operand, or an item over 400 KB;
  // ConditionalCheckFailedException as for PutItem.
  Result<std::optional<Item>> UpdateItem(std::string_view table_name, const Item& key,
                                         const std::vector<UpdateAction>& actions,
                                         const WriteOptions& options, UpdateReturn returns);
  // One page of a Query (items of one partition, in sort-key order or reverse) or a Scan (the
  // table, or one parallel-scan segment, in partition-hash order). ResourceNotFoundException;
  // ValidationException for a key condition that does not fit the key schema, a filter on a key
  // attribute (Query), or an invalid ExclusiveStartKey.
  Result<ReadPage> Query(const QueryArgs& args) const;
  Result<ReadPage> Scan(const ScanArgs& args) const;

  // Checks every request (tables, keys, item sizes, duplicate keys) before applying any.
  Status BatchWriteItem(const std::vector<WriteRequest>& requests);
  // The item for each request, in order (nullopt where there is none). Checks every key first.
  Result<std::vector<std::optional<StoredItem>>> BatchGetItem(
      const std::vector<GetRequest>& requests) const;

  const EngineOptions& options() const { return options_; }
  std::string TableArn(std::string_view table_name) const;

 private:
  struct TableEntry {
    TableDescription description;
    int64_t transition_done_ms = 0;  // when a CREATING/UPDATING/DELETING status ends
    KeyShape key_shape;
    std::shared_ptr<TableItems> items = std::make_shared<TableItems>();
    std::shared_ptr<const TableIndexes> indexes = std::make_shared<TableIndexes>();
    size_t next_index_slot = 0;  // slots of deleted indexes are not reused
  };

  // What an item operation needs of a table; keeps the items alive if the table is deleted
  // meanwhile.
  struct ItemTable {
    std::shared_ptr<TableItems> items;
    KeyShape key_shape;
    std::shared_ptr<const TableIndexes> indexes;
    uint64_t index_generation = 0;  // of `indexes`, for TableItems::Put and Apply
    bool backfilling = false;       // an index update is still running: created indexes backfill
  };
  Result<ItemTable> FindItemTable(std::string_view table_name) const;
  Result<ReadPage> ReadRange(const ItemTable& table, const ReadTarget& target,
                             TableItems::KeyRange range, bool forward,
                             const ReadOptions& options) const;

  // The entry's description with its status as of `now_ms`, without the live counts: those
  // (FillCounts) take the table's items lock, which a backfill holds for seconds, so callers
  // fill them in after releasing mutex_.
  static TableDescription Snapshot(const TableEntry& entry, int64_t now_ms);
  // True once a DELETING table's deletion has completed: it no longer exists.
  static bool IsGone(const TableEntry& entry, int64_t now_ms);
  // What UpdateTable's index changes ask of the table's items: slots to fill and to empty, and
  // how to compute the entries of the new set of indexes.
  struct IndexChange {
    std::vector<size_t> added;
    std::vector<size_t> dropped;
    TableItems::EntriesOf entries_of;
  };
  // After UpdateTable changed the entry's index descriptions: installs the new TableIndexes and
  // returns what the items must change. Caller holds mutex_ exclusively.
  static IndexChange ReindexLocked(TableEntry& entry);
  // The live item counts and sizes of the table and its indexes.
  static void FillCounts(const TableItems& items, TableDescription& description);
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
