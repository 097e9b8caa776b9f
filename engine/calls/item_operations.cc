// Engine's item operations: PutItem, GetItem, DeleteItem, UpdateItem and the two batch
// operations. Every write goes through TableItems::Commit in a WriteScope; what it committed
// gives the consumed capacity and the item collection metrics.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

#include "engine/api/items.h"
#include "engine/calls/engine_state.h"
#include "engine/catalog/insight_counts.h"
#include "engine/catalog/item_writes.h"
#include "engine/engine.h"
#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

// A write refused by its condition still consumed write units for the item it looked at.
void ChargeRefusedWrite(const WriteArgs& args, const ItemTable& table, const Error& error,
                        uint32_t size_bytes, const Item& key, int64_t now_ms) {
  if (error.code() != ErrorCode::kConditionalCheckFailed) return;
  ConsumedCapacity consumed;
  consumed.table_units = WriteUnits(size_bytes);
  ChargeWrite(table, consumed, now_ms);
  if (!args.partiql) CountAccess(table, key, nullptr, consumed, true, now_ms);
}

// A write refused before it started, for `key`: a throttle is counted (Contributor Insights).
Error RefusedWrite(const WriteArgs& args, const ItemTable& table, const Item& key, Error error,
                   int64_t now_ms) {
  if (!args.partiql) CountThrottle(table, key, error, now_ms);
  return error;
}

// The outcome parts every single-item write reports once it committed, and its charge.
// `indexed`: the item as written, whose global index keys the write changed (null: not known).
void ReportWrite(const WriteArgs& args, const ItemTable& table, const Committed& change,
                 const Item& item, const Item* indexed, int64_t now_ms, WriteOutcome& outcome) {
  if (Counted(args.return_consumed_capacity, table)) {
    ConsumedCapacity consumed;
    AddWriteCapacity(change, *table.indexes, consumed);
    ChargeWrite(table, consumed, now_ms);
    if (!args.partiql) CountAccess(table, item, indexed, consumed, true, now_ms);
    // Named only when reported: the charge needs no name, and a long one would allocate.
    if (args.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      consumed.table_name = std::string(args.table_name);
      outcome.consumed_capacity = std::move(consumed);
    }
  }
  if (args.return_item_collection_metrics && change.item_collection_bytes >= 0) {
    outcome.item_collection_metrics =
        CollectionMetrics(table.key_shape, item, change.item_collection_bytes);
  }
}

// What a single-item write answers once its commit is done: the error (a refused condition is
// still charged, for the `looked_at` bytes it read), or the outcome. `attributes`: UpdateItem's
// ReturnValues; PutItem and DeleteItem return the old item the commit kept, if asked.
// `indexed`: ReportWrite's.
Result<WriteOutcome> FinishWrite(const WriteArgs& args, const ItemTable& table,
                                 Result<TableItems::CommitResult>& committed, uint32_t looked_at,
                                 const Item& item, const Item* indexed, int64_t now_ms,
                                 std::optional<Item> attributes = std::nullopt) {
  if (!committed.ok()) {
    ChargeRefusedWrite(args, table, committed.error(), looked_at, item, now_ms);
    return committed.error();
  }
  WriteOutcome outcome;
  outcome.attributes = std::move(attributes);
  outcome.old_item = std::move(committed.value().old_item);
  ReportWrite(args, table, committed.value().change, item, indexed, now_ms, outcome);
  outcome.ticket = Ticket{committed.value().change.ticket};
  return outcome;
}

using Decide = TableItems::Decide;

// Commits one change to the item with `key` in a scope of its own, released before the caller
// goes on to decode or encode anything.
// An item a transaction holds (--transaction-hold-ms) refuses the write: TransactionConflict.
Result<TableItems::CommitResult> CommitOne(const HeldItems& held, TableItems& items,
                                           std::string_view key, Decide decide) {
  WriteScope scope(items);
  return items.Commit(scope, key,
                      [&](const TableItems::Current* current) -> Result<TableItems::Write> {
                        if (held.HeldByOther(items.id(), key)) return TransactionConflict();
                        return decide(current);
                      });
}

}  // namespace

Result<WriteOutcome> Engine::PutItem(const PutItemArgs& args) {
  // The size limit is checked before the table is looked up, as DynamoDB does.
  size_t size = ItemSize(args.item);
  if (Status sized = CheckItemSize(size); !sized.ok()) return sized.error();
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  // A member of a version 2017.11.29 global table writes the item with its aws:rep:* attributes.
  std::optional<Item> stamped;
  const Item& item = StampedItem(table.value(), args.item, stamped);
  if (stamped) {
    size = ItemSize(item);
    if (Status sized = CheckItemSize(size); !sized.ok()) return sized.error();
  }
  auto key = ItemKeyBytes(table.value().key_shape, args.item, KeyMismatchStyle::kTypeMismatch);
  if (!key.ok()) return key.error();
  const TableIndexes& indexes = *table.value().indexes;
  if (Status index_keys = indexes.CheckItem(args.item); !index_keys.ok()) return index_keys.error();
  const int64_t now_ms = ThroughputNow(clock_, table.value());
  if (Status admitted = AdmitWrite(table.value(), now_ms); !admitted.ok()) {
    return RefusedWrite(args, table.value(), args.item, admitted.error(), now_ms);
  }
  StrongWriteClaim claim;  // a STRONG global table's (ends after the commit)
  if (Status claimed = claim.Begin(table.value(), key.value()); !claimed.ok()) {
    return claimed.error();
  }
  const StoredItem stored{EncodeItem(item), static_cast<uint32_t>(size)};
  const IndexEntries entries = indexes.EntriesFor(key.value(), stored);
  uint32_t looked_at = stored.size_bytes;
  auto committed =
      CommitOne(state_->transactions.held(), *table.value().items, key.value(),
                [&](const TableItems::Current* current) -> Result<TableItems::Write> {
                  if (current != nullptr) looked_at = std::max(looked_at, current->size_bytes);
                  FoundItem found(current);
                  if (Status checked = CheckCondition(args.condition,
                                                      args.return_item_on_condition_failure, found);
                      !checked.ok())
                    return checked.error();
                  return TableItems::Write{TableItems::Write::Kind::kPut, &stored, &entries,
                                           table.value().index_generation,
                                           args.return_values == ReturnValues::kAllOld};
                });
  return FinishWrite(args, table.value(), committed, looked_at, args.item, &args.item, now_ms);
}

Result<GetItemOutcome> Engine::GetItem(const GetItemArgs& args) const {
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  auto key_bytes = LookupKeyBytes(table.value().key_shape, args.key);
  if (!key_bytes.ok()) return key_bytes.error();
  const int64_t now_ms = ThroughputNow(clock_, table.value());
  if (Status admitted = AdmitRead(table.value(), "", now_ms); !admitted.ok()) {
    if (!args.partiql) CountThrottle(table.value(), args.key, admitted.error(), now_ms);
    return admitted.error();
  }
  if (Status strong = CheckStrongRead(table.value(), args.consistent_read); !strong.ok()) {
    return strong.error();
  }
  GetItemOutcome outcome;
  const TableItems& items = *table.value().items;
  outcome.item = items.Get(key_bytes.value(), items.ReadMoment(args.consistent_read));
  if (Counted(args.return_consumed_capacity, table.value())) {
    ConsumedCapacity consumed;
    // A missing item costs as much as a small one; a projection does not make it cheaper.
    consumed.table_units =
        ReadUnits(outcome.item ? outcome.item->size_bytes : 0, args.consistent_read);
    ChargeRead(table.value(), consumed, now_ms);
    if (!args.partiql) CountAccess(table.value(), args.key, nullptr, consumed, false, now_ms);
    if (args.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      consumed.table_name = std::string(args.table_name);  // named only when reported
      outcome.consumed_capacity = std::move(consumed);
    }
  }
  Project(args.projection, outcome);
  return outcome;
}

Result<WriteOutcome> Engine::DeleteItem(const DeleteItemArgs& args) {
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  auto key_bytes = LookupKeyBytes(table.value().key_shape, args.key);
  if (!key_bytes.ok()) return key_bytes.error();
  const int64_t now_ms = ThroughputNow(clock_, table.value());
  if (Status admitted = AdmitWrite(table.value(), now_ms); !admitted.ok()) {
    return RefusedWrite(args, table.value(), args.key, admitted.error(), now_ms);
  }
  StrongWriteClaim claim;  // a STRONG global table's (ends after the commit)
  if (Status claimed = claim.Begin(table.value(), key_bytes.value()); !claimed.ok()) {
    return claimed.error();
  }
  uint32_t looked_at = 0;
  auto committed =
      CommitOne(state_->transactions.held(), *table.value().items, key_bytes.value(),
                [&](const TableItems::Current* current) -> Result<TableItems::Write> {
                  if (current != nullptr) looked_at = current->size_bytes;
                  FoundItem found(current);
                  if (Status checked = CheckCondition(args.condition,
                                                      args.return_item_on_condition_failure, found);
                      !checked.ok())
                    return checked.error();
                  return TableItems::Write{TableItems::Write::Kind::kDelete, nullptr, nullptr, 0,
                                           args.return_values == ReturnValues::kAllOld};
                });
  // A deletion's index entries are not attributed: its item is not decoded for it.
  return FinishWrite(args, table.value(), committed, looked_at, args.key, nullptr, now_ms);
}

Result<WriteOutcome> Engine::UpdateItem(const UpdateItemArgs& args) {
  auto table = state_->catalog.FindItemTable(args.table_name);
  if (!table.ok()) return table.error();
  const KeyShape& shape = table.value().key_shape;
  auto key_bytes = LookupKeyBytes(shape, args.key);
  if (!key_bytes.ok()) return key_bytes.error();
  auto updated_paths = CheckUpdatePaths(shape, args.actions);
  if (!updated_paths.ok()) return updated_paths.error();
  const int64_t now_ms = ThroughputNow(clock_, table.value());
  if (Status admitted = AdmitWrite(table.value(), now_ms); !admitted.ok()) {
    return RefusedWrite(args, table.value(), args.key, admitted.error(), now_ms);
  }
  StrongWriteClaim claim;  // a STRONG global table's (ends after the commit)
  if (Status claimed = claim.Begin(table.value(), key_bytes.value()); !claimed.ok()) {
    return claimed.error();
  }
  std::optional<Item> returned;
  UpdatedItem updated;
  uint32_t looked_at = 0;
  auto committed = CommitOne(
      state_->transactions.held(), *table.value().items, key_bytes.value(),
      [&](const TableItems::Current* current) -> Result<TableItems::Write> {
        if (current != nullptr) looked_at = current->size_bytes;
        FoundItem found(current);
        if (Status checked =
                CheckCondition(args.condition, args.return_item_on_condition_failure, found);
            !checked.ok()) {
          return checked.error();
        }
        auto applied = ApplyUpdateTo(table.value(), args.key, key_bytes.value(), args.actions,
                                     found, args.statement_sized);
        if (!applied.ok()) return applied.error();
        updated = std::move(applied).value();
        if (!updated.writes) {
          return TableItems::Write{TableItems::Write::Kind::kDelete, nullptr, nullptr, 0, false};
        }
        switch (args.return_values) {
          case ReturnValues::kNone:
            break;
          case ReturnValues::kAllOld:
            if (current != nullptr) returned = updated.old_item;
            break;
          case ReturnValues::kUpdatedOld:
            returned = ProjectItem(updated.old_item, updated_paths.value());
            break;
          case ReturnValues::kAllNew:
            returned = updated.new_item;
            break;
          case ReturnValues::kUpdatedNew:
            returned = ProjectItem(updated.new_item, updated_paths.value());
            break;
        }
        if (returned && returned->empty()) returned.reset();
        return TableItems::Write{TableItems::Write::Kind::kPut, &updated.stored, &updated.entries,
                                 table.value().index_generation, false};
      });
  return FinishWrite(args, table.value(), committed, looked_at, args.key,
                     updated.writes ? &updated.new_item : nullptr, now_ms, std::move(returned));
}

Result<BatchWriteItemOutcome> Engine::BatchWriteItem(const BatchWriteItemArgs& args) {
  struct Prepared {
    ItemTable table;
    std::string key;
    std::optional<StoredItem> stored;  // set for puts
    IndexEntries entries;
  };
  std::vector<Prepared> prepared;
  prepared.reserve(args.requests.size());
  std::set<std::pair<std::string, std::string>> seen;  // (table, key bytes)
  for (const WriteRequest& request : args.requests) {
    const bool put = request.kind == WriteRequest::Kind::kPut;
    const size_t size = put ? ItemSize(request.item) : 0;
    if (Status sized = CheckItemSize(size); !sized.ok()) return sized.error();
    auto table = state_->catalog.FindItemTable(request.table_name);
    if (!table.ok()) return table.error();
    auto key =
        put ? ItemKeyBytes(table.value().key_shape, request.item, KeyMismatchStyle::kSchemaMismatch)
            : LookupKeyBytes(table.value().key_shape, request.item);
    if (!key.ok()) return key.error();
    if (!seen.emplace(request.table_name, key.value()).second) {
      return Error::Validation("Provided list of item keys contains duplicates");
    }
    Prepared entry{std::move(table).value(), std::move(key).value(), std::nullopt, {}};
    if (put) {
      const TableIndexes& indexes = *entry.table.indexes;
      if (Status index_keys = indexes.CheckItem(request.item); !index_keys.ok()) {
        return index_keys.error();
      }
      // A member of a version 2017.11.29 global table: with its aws:rep:* attributes.
      std::optional<Item> stamped;
      const Item& item = StampedItem(entry.table, request.item, stamped);
      const size_t stored_size = stamped ? ItemSize(item) : size;
      if (Status sized = CheckItemSize(stored_size); !sized.ok()) return sized.error();
      entry.stored = StoredItem{EncodeItem(item), static_cast<uint32_t>(stored_size)};
      entry.entries = indexes.EntriesFor(entry.key, *entry.stored);
    }
    prepared.push_back(std::move(entry));
  }
  BatchWriteItemOutcome outcome;
  const int64_t now_ms = clock_.NowMs();
  std::optional<Error> throttled;  // the first refusal, the answer if every write was refused
  for (size_t i = 0; i < prepared.size(); ++i) {
    Prepared& entry = prepared[i];
    const WriteRequest& request = args.requests[i];
    // A write its table or an index has no capacity for is handed back (UnprocessedItems).
    if (Status admitted = AdmitWrite(entry.table, now_ms); !admitted.ok()) {
      CountThrottle(entry.table, request.item, admitted.error(), now_ms);
      outcome.unprocessed.push_back(i);
      if (!throttled) throttled = admitted.error();
      continue;
    }
    // A STRONG global table's item another region is changing fails the call here, as below.
    StrongWriteClaim claim;
    if (Status claimed = claim.Begin(entry.table, entry.key); !claimed.ok()) {
      return claimed.error();
    }
    // An item collection over its limit fails the call here; writes before it stay, as each
    // write of a batch stands alone in DynamoDB. An item a transaction in flight holds
    // (--transaction-hold-ms) is handed back: BatchWriteItem has no TransactionConflict error.
    auto committed =
        CommitOne(state_->transactions.held(), *entry.table.items, entry.key,
                  [&](const TableItems::Current*) -> Result<TableItems::Write> {
                    if (!entry.stored) return TableItems::Write{TableItems::Write::Kind::kDelete};
                    return TableItems::Write{TableItems::Write::Kind::kPut, &*entry.stored,
                                             &entry.entries, entry.table.index_generation, false};
                  });
    if (!committed.ok()) {
      if (committed.error().code() != ErrorCode::kTransactionConflict) return committed.error();
      outcome.unprocessed.push_back(i);
      continue;
    }
    // The table holds its own copy now: a batch of 16 MB does not keep both to its end.
    entry.stored.reset();
    const Committed& change = committed.value().change;
    outcome.ticket.Add(Ticket{change.ticket});
    if (Counted(args.return_consumed_capacity, entry.table)) {
      ConsumedCapacity consumed;
      AddWriteCapacity(change, *entry.table.indexes, consumed);
      ChargeWrite(entry.table, consumed, now_ms);
      const bool put = request.kind == WriteRequest::Kind::kPut;
      CountAccess(entry.table, request.item, put ? &request.item : nullptr, consumed, true, now_ms);
      if (args.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
        TableConsumption(outcome.consumed_capacity, request.table_name).Add(consumed);
      }
    }
    if (args.return_item_collection_metrics && change.item_collection_bytes >= 0) {
      AddCollectionMetrics(
          outcome.item_collection_metrics, request.table_name,
          CollectionMetrics(entry.table.key_shape, request.item, change.item_collection_bytes));
    }
  }
  if (throttled && outcome.unprocessed.size() == prepared.size()) return *throttled;
  return outcome;
}

Result<BatchGetItemOutcome> Engine::BatchGetItem(const BatchGetItemArgs& args) const {
  std::vector<std::pair<ItemTable, std::string>> lookups;
  lookups.reserve(args.requests.size());
  std::set<std::pair<std::string, std::string>> seen;
  for (const GetRequest& request : args.requests) {
    auto table = state_->catalog.FindItemTable(request.table_name);
    if (!table.ok()) return table.error();
    auto key = LookupKeyBytes(table.value().key_shape, request.key);
    if (!key.ok()) return key.error();
    if (!seen.emplace(request.table_name, key.value()).second) {
      return Error::Validation("Provided list of item keys contains duplicates");
    }
    if (Status strong = CheckStrongRead(table.value(), request.consistent_read); !strong.ok()) {
      return strong.error();
    }
    lookups.emplace_back(std::move(table).value(), std::move(key).value());
  }
  BatchGetItemOutcome outcome;
  outcome.items.reserve(lookups.size());
  const int64_t now_ms = clock_.NowMs();
  std::optional<Error> throttled;  // the first refusal, the answer if every read was refused
  for (size_t i = 0; i < lookups.size(); ++i) {
    const auto& [table, key] = lookups[i];
    // A key its table has no capacity for is handed back (UnprocessedKeys).
    if (Status admitted = AdmitRead(table, "", now_ms); !admitted.ok()) {
      CountThrottle(table, args.requests[i].key, admitted.error(), now_ms);
      outcome.items.emplace_back();
      outcome.unprocessed.push_back(i);
      if (!throttled) throttled = admitted.error();
      continue;
    }
    const GetRequest& request = args.requests[i];
    outcome.items.emplace_back().item =
        table.items->Get(key, table.items->ReadMoment(request.consistent_read));
    if (!Counted(args.return_consumed_capacity, table)) continue;
    // Each item is rounded up on its own, then summed per table.
    const std::optional<StoredItem>& item = outcome.items.back().item;
    ConsumedCapacity consumed;
    consumed.table_units = ReadUnits(item ? item->size_bytes : 0, request.consistent_read);
    ChargeRead(table, consumed, now_ms);
    CountAccess(table, request.key, nullptr, consumed, false, now_ms);
    if (args.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
      TableConsumption(outcome.consumed_capacity, request.table_name).Add(consumed);
    }
  }
  if (throttled && outcome.unprocessed.size() == lookups.size()) return *throttled;
  for (size_t i = 0; i < outcome.items.size(); ++i) {
    Project(args.requests[i].projection, outcome.items[i]);
  }
  return outcome;
}

}  // namespace ddbd
