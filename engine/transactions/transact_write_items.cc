// TransactWriteItems: every action decided with all its items held, then all committed, or none.
#include <set>
#include <utility>

#include "engine/engine.h"
#include "engine/engine_state.h"
#include "engine/item_writes.h"
#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

using Kind = TransactWriteAction::Kind;

// One action, checked against its table before any item is held.
struct Prepared {
  const TransactWriteAction* action = nullptr;
  ItemTable table;
  std::string key;
  StoredItem stored;     // kPut
  IndexEntries entries;  // kPut
  UpdatedItem updated;   // kUpdate, once decided
  TableItems::Write write;
  uint32_t looked_at = 0;  // the current item's size: what a ConditionCheck or Delete costs
};

CancellationReason ReasonFor(const Error& error) {
  switch (error.code()) {
    case ErrorCode::kProvisionedThroughputExceeded:
      return {"ProvisionedThroughputExceeded", error.message(), nullptr};
    case ErrorCode::kThrottling:
      return {"ThrottlingError", error.message(), nullptr};
    case ErrorCode::kConditionalCheckFailed: {
      return {"ConditionalCheckFailed", "The conditional request failed",
              error.item() != nullptr ? std::make_shared<const Item>(*error.item()) : nullptr};
    }
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return {"ItemCollectionSizeLimitExceeded", "Collection size exceeded.", nullptr};
    default:
      return {"ValidationError", error.message(), nullptr};
  }
}

// What one action checks of its own request, before any item is held (the key, a Put's item,
// an Update's paths): an error becomes that action's ValidationError.
Status CheckAction(Prepared& prepared) {
  const TransactWriteAction& action = *prepared.action;
  const KeyShape& shape = prepared.table.key_shape;
  if (action.kind == Kind::kPut) {
    const size_t size = ItemSize(action.item);
    if (Status sized = CheckItemSize(size); !sized.ok()) return sized;
    auto key = ItemKeyBytes(shape, action.item, KeyMismatchStyle::kTypeMismatch);
    if (!key.ok()) return key.error();
    prepared.key = std::move(key).value();
    const TableIndexes& indexes = *prepared.table.indexes;
    if (Status index_keys = indexes.CheckItem(action.item); !index_keys.ok()) return index_keys;
    prepared.stored = StoredItem{EncodeItem(action.item), static_cast<uint32_t>(size)};
    prepared.entries = indexes.EntriesFor(action.item);
    return Ok{};
  }
  auto key = LookupKeyBytes(shape, action.item);
  if (!key.ok()) return key.error();
  prepared.key = std::move(key).value();
  if (action.kind == Kind::kUpdate) {
    auto paths = CheckUpdatePaths(shape, action.actions);
    if (!paths.ok()) return paths.error();
  }
  return Ok{};
}

// With the items held: whether the action's condition holds, and what it will write.
Status Decide(const WriteScope& scope, Prepared& prepared, const TableItems::Current* current) {
  const TransactWriteAction& action = *prepared.action;
  prepared.looked_at = current != nullptr ? current->size_bytes : 0;
  const Condition* condition = action.condition ? &*action.condition : nullptr;
  if (Status checked = CheckCondition(condition, action.return_item_on_condition_failure, current);
      !checked.ok()) {
    return checked;
  }
  using Write = TableItems::Write;
  switch (action.kind) {
    case Kind::kConditionCheck:
      return Ok{};
    case Kind::kPut:
      prepared.write = Write{Write::Kind::kPut, &prepared.stored, &prepared.entries,
                             prepared.table.index_generation, false};
      break;
    case Kind::kDelete:
      prepared.write = Write{Write::Kind::kDelete, nullptr, nullptr, 0, false};
      break;
    case Kind::kUpdate: {
      auto updated = ApplyUpdateTo(prepared.table, action.item, action.actions, current);
      if (!updated.ok()) return updated.error();
      prepared.updated = std::move(updated).value();
      prepared.write =
          prepared.updated.writes
              ? Write{Write::Kind::kPut, &prepared.updated.stored, &prepared.updated.entries,
                      prepared.table.index_generation, false}
              : Write{Write::Kind::kDelete, nullptr, nullptr, 0, false};
      break;
    }
  }
  return prepared.table.items->CheckCollection(scope, prepared.key, prepared.write);
}

// What the transaction consumed on each table: twice the table's write units (a ConditionCheck
// or a write that changed nothing costs the item it looked at), index units as usual.
void AddTransactionCapacity(const Prepared& prepared, const Committed* change,
                            std::vector<ConsumedCapacity>& per_table) {
  ConsumedCapacity consumed;
  if (change != nullptr) {
    AddWriteCapacity(*change, *prepared.table.indexes, consumed);
  } else {
    consumed.table_units = WriteUnits(prepared.looked_at);
  }
  consumed.table_units *= 2;
  ConsumedCapacity& total = TableConsumption(per_table, prepared.action->table_name);
  total.kind = ConsumedCapacity::Kind::kWrite;
  total.Add(consumed);
}

}  // namespace

Result<TransactWriteItemsOutcome> Engine::TransactWriteItems(const TransactWriteItemsArgs& args) {
  if (!args.client_request_token) return ApplyTransactWriteItems(args);
  const std::string& token = *args.client_request_token;
  auto claim = state_->request_tokens.Begin(token, args.request_fingerprint, clock_.NowMs());
  if (!claim.ok()) return claim.error();
  if (claim.value() == RequestTokens::Claim::kReplay) return ReplayTransactWriteItems(args);
  auto outcome = ApplyTransactWriteItems(args);
  state_->request_tokens.Finish(token, outcome.ok(), clock_.NowMs());
  return outcome;
}

Result<TransactWriteItemsOutcome> Engine::ReplayTransactWriteItems(
    const TransactWriteItemsArgs& args) {
  TransactWriteItemsOutcome outcome;
  if (args.return_consumed_capacity == ReturnConsumedCapacity::kNone) return outcome;
  for (const TransactWriteAction& action : args.actions) {
    auto table = FindItemTable(action.table_name);
    if (!table.ok()) return table.error();
    auto key = action.kind == Kind::kPut ? ItemKeyBytes(table.value().key_shape, action.item,
                                                        KeyMismatchStyle::kTypeMismatch)
                                         : LookupKeyBytes(table.value().key_shape, action.item);
    if (!key.ok()) return key.error();
    const std::optional<StoredItem> item = table.value().items->Get(key.value());
    ConsumedCapacity consumed;
    consumed.table_units = ReadUnits(item ? item->size_bytes : 0, true);
    ConsumedCapacity& total = TableConsumption(outcome.consumed_capacity, action.table_name);
    total.kind = ConsumedCapacity::Kind::kRead;
    total.Add(consumed);
  }
  return outcome;
}

Result<TransactWriteItemsOutcome> Engine::ApplyTransactWriteItems(
    const TransactWriteItemsArgs& args) {
  std::vector<Prepared> prepared(args.actions.size());
  std::vector<CancellationReason> reasons(args.actions.size(),
                                          CancellationReason{"None", "", nullptr});
  bool invalid = false;
  std::set<std::pair<std::string, std::string>> seen;  // (table, key bytes)
  for (size_t i = 0; i < args.actions.size(); ++i) {
    prepared[i].action = &args.actions[i];
    auto table = FindItemTable(args.actions[i].table_name);
    if (!table.ok()) return table.error();
    prepared[i].table = std::move(table).value();
    // Only the first action with a bad key or item is named; the rest stay None (measured).
    if (invalid) continue;
    if (Status checked = CheckAction(prepared[i]); !checked.ok()) {
      reasons[i] = ReasonFor(checked.error());
      invalid = true;
      continue;
    }
    if (!seen.emplace(args.actions[i].table_name, prepared[i].key).second) {
      return Error::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
  }
  if (invalid) return Error::TransactionCanceled(std::move(reasons));
  // Under --enforce-throughput, an action whose table or global index is out of capacity cancels
  // the transaction with a throttling reason.
  const int64_t now_ms = clock_.NowMs();
  bool throttled = false;
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (!prepared[i].table.throughput) continue;
    if (Status admitted = prepared[i].table.throughput->AdmitWrite(now_ms); !admitted.ok()) {
      reasons[i] = ReasonFor(admitted.error());
      throttled = true;
    }
  }
  if (throttled) return Error::TransactionCanceled(std::move(reasons));

  std::vector<TableItems*> tables;
  for (const Prepared& action : prepared) tables.push_back(action.table.items.get());
  TransactWriteItemsOutcome outcome;
  {
    WriteScope scope(tables);
    // Every condition is evaluated: several actions may fail at once.
    bool cancelled = false;
    for (size_t i = 0; i < prepared.size(); ++i) {
      TableItems::Current current;
      const bool found = prepared[i].table.items->Peek(scope, prepared[i].key, &current);
      if (Status decided = Decide(scope, prepared[i], found ? &current : nullptr); !decided.ok()) {
        reasons[i] = ReasonFor(decided.error());
        cancelled = true;
      }
    }
    if (cancelled) return Error::TransactionCanceled(std::move(reasons));
    const CommitContext context{ChangeOrigin::kTransaction,
                                state_->next_transaction_id.fetch_add(1)};
    for (Prepared& action : prepared) {
      if (action.action->kind == Kind::kConditionCheck) {
        AddTransactionCapacity(action, nullptr, outcome.consumed_capacity);
        continue;
      }
      auto committed = action.table.items->Commit(
          scope, action.key,
          [&](const TableItems::Current*) -> Result<TableItems::Write> { return action.write; },
          context);
      // Every check that can fail was made above, with the same items held.
      if (!committed.ok()) return committed.error();
      const Committed& change = committed.value().change;
      AddTransactionCapacity(action, &change, outcome.consumed_capacity);
      if (args.return_item_collection_metrics && change.item_collection_bytes >= 0) {
        AddCollectionMetrics(outcome.item_collection_metrics, action.action->table_name,
                             CollectionMetrics(action.table.key_shape, action.action->item,
                                               change.item_collection_bytes));
      }
    }
  }
  for (const ConsumedCapacity& consumed : outcome.consumed_capacity) {
    for (const Prepared& action : prepared) {
      if (action.action->table_name != consumed.table_name) continue;
      if (action.table.throughput) action.table.throughput->ChargeWrite(consumed, now_ms);
      break;
    }
  }
  if (args.return_consumed_capacity == ReturnConsumedCapacity::kNone) {
    outcome.consumed_capacity.clear();
  }
  return outcome;
}

}  // namespace ddbd
