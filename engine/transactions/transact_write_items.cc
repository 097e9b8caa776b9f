// TransactWriteItems: every action decided with all its items held, then all committed, or none.
#include <future>
#include <optional>
#include <set>
#include <utility>

#include "engine/catalog/insight_counts.h"
#include "engine/catalog/item_writes.h"
#include "engine/model/item_codec.h"
#include "engine/persistence/journal.h"
#include "engine/transactions/transactions.h"

namespace ddbd {

using Kind = TransactWriteAction::Kind;

// One action, checked against its table before any item is held.
struct TransactionAction {
  const TransactWriteAction* action = nullptr;
  ItemTable table;
  std::string key;
  StoredItem stored;     // kPut
  IndexEntries entries;  // kPut
  UpdatedItem updated;   // kUpdate, once decided
  TableItems::Write write;
  uint32_t looked_at = 0;  // the current item's size: what a ConditionCheck or Delete costs
};
using Prepared = TransactionAction;

// A transaction between its decision and its commit: it owns its arguments, which its actions
// point into.
struct PendingTransaction {
  TransactWriteItemsArgs args;
  std::vector<TransactionAction> actions;
  std::vector<TableItems*> tables;
  uint64_t id = 0;
  int64_t now_ms = 0;
};

namespace {

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

// A refusal of an action's own request that DynamoDB answers for the whole request, before the
// transaction, rather than as the action's cancellation reason: an empty key value, a Put's item
// over 400 KB (behaviours-to-match C2, C3; an Update over the size still cancels).
bool RefusedBeforeTheTransaction(const TransactWriteAction& action, const Error& error) {
  const std::string& message = error.message();
  return message.starts_with(
             "One or more parameter values are not valid. The AttributeValue for a key attribute "
             "cannot contain an empty ") ||
         (action.kind == Kind::kPut &&
          message == "Item size has exceeded the maximum allowed size");
}

// What one action checks of its own request, before any item is held (the key, a Put's item,
// an Update's paths): an error becomes that action's ValidationError.
Status CheckAction(Prepared& prepared) {
  const TransactWriteAction& action = *prepared.action;
  const KeyShape& shape = prepared.table.key_shape;
  if (action.kind == Kind::kPut) {
    // A member of a version 2017.11.29 global table writes the item with its aws:rep:*
    // attributes.
    std::optional<Item> stamped;
    const Item& item = StampedItem(prepared.table, action.item, stamped);
    const size_t size = ItemSize(item);
    if (Status sized = CheckItemSize(size); !sized.ok()) return sized;
    auto key = ItemKeyBytes(shape, action.item, KeyMismatchStyle::kTypeMismatch);
    if (!key.ok()) return key.error();
    prepared.key = std::move(key).value();
    const TableIndexes& indexes = *prepared.table.indexes;
    if (Status index_keys = indexes.CheckItem(item); !index_keys.ok()) return index_keys;
    prepared.stored = StoredItem{EncodeItem(item), static_cast<uint32_t>(size)};
    prepared.entries = indexes.EntriesFor(prepared.key, prepared.stored);
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
Status DecideAction(const WriteScope& scope, Prepared& prepared,
                    const TableItems::Current* current) {
  const TransactWriteAction& action = *prepared.action;
  prepared.looked_at = current != nullptr ? current->size_bytes : 0;
  const Condition* condition = action.condition ? &*action.condition : nullptr;
  FoundItem found(current);
  if (Status checked = CheckCondition(condition, action.return_item_on_condition_failure, found);
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
      auto updated =
          ApplyUpdateTo(prepared.table, action.item, prepared.key, action.actions, found);
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
// or a write that changed nothing costs the item it looked at), index units as usual. Returns the
// action's own part.
ConsumedCapacity AddTransactionCapacity(const Prepared& prepared, const Committed* change,
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
  return consumed;
}

}  // namespace

Transactions::Transactions(Catalog& catalog) : catalog_(catalog) {
  if (catalog_.options.transaction_hold_ms > 0) delayed_ = std::make_unique<DelayedTasks>();
}

Transactions::~Transactions() { StopHolding(); }

void Transactions::StopHolding() { delayed_.reset(); }

Result<TransactWriteItemsOutcome> Transactions::Write(const TransactWriteItemsArgs& args) {
  if (catalog_.options.transaction_hold_ms <= 0) {
    Result<TransactWriteItemsOutcome> answer = Error::Internal("");
    WriteAsync(TransactWriteItemsArgs(args), [&answer](Result<TransactWriteItemsOutcome> outcome) {
      answer = std::move(outcome);
    });
    return answer;
  }
  // Held transactions answer from the delay thread: wait for it (tests, direct engine users).
  std::promise<Result<TransactWriteItemsOutcome>> answered;
  WriteAsync(TransactWriteItemsArgs(args), [&answered](Result<TransactWriteItemsOutcome> outcome) {
    answered.set_value(std::move(outcome));
  });
  return answered.get_future().get();
}

void Transactions::WriteAsync(TransactWriteItemsArgs&& args, Done&& done) {
  if (!args.client_request_token) return Run(std::move(args), std::move(done));
  const std::string token = *args.client_request_token;
  auto claim = request_tokens_.Begin(token, args.request_fingerprint, catalog_.clock.NowMs());
  if (!claim.ok()) return done(claim.error());
  if (claim.value() == RequestTokens::Claim::kReplay) return done(Repeat(args));
  Run(std::move(args),
      [this, token, done = std::move(done)](Result<TransactWriteItemsOutcome> outcome) {
        request_tokens_.Finish(token, outcome.ok(), catalog_.clock.NowMs());
        done(std::move(outcome));
      });
}

Result<TransactWriteItemsOutcome> Transactions::Repeat(const TransactWriteItemsArgs& args) {
  TransactWriteItemsOutcome outcome;
  if (args.return_consumed_capacity == ReturnConsumedCapacity::kNone) return outcome;
  for (const TransactWriteAction& action : args.actions) {
    auto table = catalog_.FindItemTable(action.table_name);
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

Result<std::shared_ptr<PendingTransaction>> Transactions::Prepare(TransactWriteItemsArgs args) {
  auto pending = std::make_shared<PendingTransaction>();
  pending->args = std::move(args);
  const std::vector<TransactWriteAction>& actions = pending->args.actions;
  std::vector<Prepared>& prepared = pending->actions;
  prepared.resize(actions.size());
  std::vector<CancellationReason> reasons(actions.size(), CancellationReason{"None", "", nullptr});
  bool invalid = false;
  std::set<std::pair<std::string, std::string>> seen;  // (table, key bytes)
  for (size_t i = 0; i < actions.size(); ++i) {
    prepared[i].action = &actions[i];
    auto table = catalog_.FindItemTable(actions[i].table_name);
    if (!table.ok()) return table.error();
    if (table.value().strong) return StrongTransactionRefused(actions[i].table_name);
    prepared[i].table = std::move(table).value();
    // Only the first action with a bad key or item is named; the rest stay None (measured).
    if (invalid) continue;
    if (Status checked = CheckAction(prepared[i]); !checked.ok()) {
      if (RefusedBeforeTheTransaction(actions[i], checked.error())) return checked.error();
      reasons[i] = ReasonFor(checked.error());
      invalid = true;
      continue;
    }
    if (!seen.emplace(actions[i].table_name, prepared[i].key).second) {
      return Error::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
  }
  if (invalid) return Error::TransactionCanceled(std::move(reasons));
  size_t put_bytes = 0;
  for (const Prepared& action : prepared) put_bytes += action.stored.size_bytes;
  if (put_bytes > kMaxTransactionBytes) {
    // UNCONFIRMED text: measured only as "...size cannot exceed..." (../shared/aws-semantics.md).
    return Error::Validation("Transaction request size cannot exceed 4 MB");
  }
  // Under --enforce-throughput, an action whose table or global index is out of capacity cancels
  // the transaction with a throttling reason.
  pending->now_ms = catalog_.clock.NowMs();
  bool throttled = false;
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (Status admitted = AdmitWrite(prepared[i].table, pending->now_ms); !admitted.ok()) {
      if (!pending->args.partiql) {
        CountThrottle(prepared[i].table, prepared[i].action->item, admitted.error(),
                      pending->now_ms);
      }
      reasons[i] = ReasonFor(admitted.error());
      throttled = true;
    }
  }
  if (throttled) return Error::TransactionCanceled(std::move(reasons));
  for (const Prepared& action : prepared) pending->tables.push_back(action.table.items.get());
  pending->id = next_id_.fetch_add(1);
  return pending;
}

Status Transactions::Decide(PendingTransaction& pending, const WriteScope& scope) {
  std::vector<CancellationReason> reasons(pending.actions.size(),
                                          CancellationReason{"None", "", nullptr});
  // Every condition is evaluated: several actions may fail at once.
  bool cancelled = false;
  for (size_t i = 0; i < pending.actions.size(); ++i) {
    Prepared& action = pending.actions[i];
    if (held_.HeldByOther(action.table.items->id(), action.key, pending.id)) {
      reasons[i] = {"TransactionConflict", "Transaction is ongoing for the item.", nullptr};
      cancelled = true;
      continue;
    }
    TableItems::Current current;
    const bool found = action.table.items->Peek(scope, action.key, &current);
    if (Status decided = DecideAction(scope, action, found ? &current : nullptr); !decided.ok()) {
      reasons[i] = ReasonFor(decided.error());
      cancelled = true;
    }
  }
  if (cancelled) return Error::TransactionCanceled(std::move(reasons));
  return Ok{};
}

Result<TransactWriteItemsOutcome> Transactions::Commit(PendingTransaction& pending,
                                                       WriteScope& scope) {
  const CommitContext context{ChangeOrigin::kTransaction, pending.id};
  // Its writes reach the log as one record: after a crash, all of them or none.
  LogGroup logged_together(catalog_.journal);
  scope.JoinLog(&logged_together);
  // Its ClientRequestToken completes with it: remembered now (a checkpoint that follows the
  // log's roll sees it) and logged with its writes.
  if (pending.args.client_request_token) {
    const std::string& token = *pending.args.client_request_token;
    request_tokens_.Finish(token, true, pending.now_ms);
    if (catalog_.journal) {
      catalog_.journal->RequestTokenCompleted(
          {token, pending.args.request_fingerprint, pending.now_ms}, logged_together);
    }
  }
  TransactWriteItemsOutcome outcome;
  for (Prepared& action : pending.actions) {
    const bool counted = !pending.args.partiql;  // Contributor Insights does not count PartiQL
    if (action.action->kind == Kind::kConditionCheck) {
      const ConsumedCapacity consumed =
          AddTransactionCapacity(action, nullptr, outcome.consumed_capacity);
      if (counted) {
        CountAccess(action.table, action.action->item, nullptr, consumed, true, pending.now_ms);
      }
      continue;
    }
    auto committed = action.table.items->Commit(
        scope, action.key,
        [&](const TableItems::Current*) -> Result<TableItems::Write> { return action.write; },
        context);
    // Every check that can fail was made when the transaction was decided, and its items were
    // held since.
    if (!committed.ok()) return committed.error();
    const Committed& change = committed.value().change;
    const ConsumedCapacity consumed =
        AddTransactionCapacity(action, &change, outcome.consumed_capacity);
    if (counted) {
      // A put's item gives its index keys; an update's or delete's is not decoded for it.
      const Item* indexed = action.action->kind == Kind::kPut ? &action.action->item : nullptr;
      CountAccess(action.table, action.action->item, indexed, consumed, true, pending.now_ms);
    }
    if (pending.args.return_item_collection_metrics && change.item_collection_bytes >= 0) {
      AddCollectionMetrics(outcome.item_collection_metrics, action.action->table_name,
                           CollectionMetrics(action.table.key_shape, action.action->item,
                                             change.item_collection_bytes));
    }
  }
  for (const ConsumedCapacity& consumed : outcome.consumed_capacity) {
    for (const Prepared& action : pending.actions) {
      if (action.action->table_name != consumed.table_name) continue;
      ChargeWrite(action.table, consumed, pending.now_ms);
      break;
    }
  }
  if (pending.args.return_consumed_capacity == ReturnConsumedCapacity::kNone) {
    outcome.consumed_capacity.clear();
  }
  scope.JoinLog(nullptr);
  outcome.ticket = Ticket{logged_together.Close()};
  return outcome;
}

void Transactions::Run(TransactWriteItemsArgs args, Done done) {
  auto prepared = Prepare(std::move(args));
  if (!prepared.ok()) return done(prepared.error());
  std::shared_ptr<PendingTransaction> pending = std::move(prepared).value();
  if (catalog_.options.transaction_hold_ms <= 0) {
    Result<TransactWriteItemsOutcome> outcome = Error::Internal("");
    {
      WriteScope scope(pending->tables);
      Status decided = Decide(*pending, scope);
      outcome = decided.ok() ? Commit(*pending, scope)
                             : Result<TransactWriteItemsOutcome>(decided.error());
    }
    return done(std::move(outcome));
  }
  // --transaction-hold-ms: decided and held now, committed once the hold is over.
  {
    WriteScope scope(pending->tables);
    if (Status decided = Decide(*pending, scope); !decided.ok()) {
      return done(decided.error());
    }
    for (const Prepared& action : pending->actions) {
      held_.Hold(action.table.items->id(), action.key, pending->id);
    }
  }
  delayed_->Schedule(std::chrono::milliseconds(catalog_.options.transaction_hold_ms),
                     [this, pending, done = std::move(done)] {
                       Result<TransactWriteItemsOutcome> outcome = Error::Internal("");
                       {
                         WriteScope scope(pending->tables);
                         outcome = Commit(*pending, scope);
                         for (const Prepared& action : pending->actions) {
                           held_.Release(action.table.items->id(), action.key);
                         }
                       }
                       done(std::move(outcome));
                     });
}

}  // namespace ddbd
