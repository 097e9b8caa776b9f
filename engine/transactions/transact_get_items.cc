// TransactGetItems: every item read while all the tables named are held, one consistent view.
#include <set>
#include <utility>

#include "engine/catalog/insight_counts.h"
#include "engine/catalog/item_writes.h"
#include "engine/transactions/transactions.h"

namespace ddbd {

Result<TransactGetItemsOutcome> Transactions::Get(const TransactGetItemsArgs& args) const {
  std::vector<ItemTable> tables;
  std::vector<std::string> keys;
  std::vector<CancellationReason> reasons(args.gets.size(),
                                          CancellationReason{"None", "", nullptr});
  bool invalid = false;
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < args.gets.size(); ++i) {
    auto table = catalog_.FindItemTable(args.gets[i].table_name);
    if (!table.ok()) return table.error();
    if (table.value().strong) return StrongTransactionRefused(args.gets[i].table_name);
    tables.push_back(std::move(table).value());
    if (invalid) {
      keys.emplace_back();
      continue;
    }
    auto key = LookupKeyBytes(tables.back().key_shape, args.gets[i].key);
    if (!key.ok()) {
      // As for TransactWriteItems: the first bad key is that Get's ValidationError.
      reasons[i] = {"ValidationError", key.error().message(), nullptr};
      invalid = true;
      keys.emplace_back();
      continue;
    }
    if (!seen.emplace(args.gets[i].table_name, key.value()).second) {
      return Error::Validation(
          "Transaction request cannot include multiple operations on one item");
    }
    keys.push_back(std::move(key).value());
  }
  if (invalid) return Error::TransactionCanceled(std::move(reasons));
  // Under --enforce-throughput, a Get whose table is out of read capacity cancels the whole.
  const int64_t now_ms = catalog_.clock.NowMs();
  bool throttled = false;
  for (size_t i = 0; i < tables.size(); ++i) {
    if (Status admitted = AdmitRead(tables[i], "", now_ms); !admitted.ok()) {
      if (!args.partiql) CountThrottle(tables[i], args.gets[i].key, admitted.error(), now_ms);
      const bool provisioned = admitted.error().code() == ErrorCode::kProvisionedThroughputExceeded;
      reasons[i] = {provisioned ? "ProvisionedThroughputExceeded" : "ThrottlingError",
                    admitted.error().message(), nullptr};
      throttled = true;
    }
  }
  if (throttled) return Error::TransactionCanceled(std::move(reasons));
  std::vector<const TableItems*> held;
  for (const ItemTable& table : tables) held.push_back(table.items.get());
  TransactGetItemsOutcome outcome;
  {
    ReadScope scope(held);
    bool conflict = false;
    for (size_t i = 0; i < tables.size(); ++i) {
      // An item a transaction in flight holds (--transaction-hold-ms) cancels the read.
      if (held_.HeldByOther(tables[i].items->id(), keys[i])) {
        reasons[i] = {"TransactionConflict", "Transaction is ongoing for the item.", nullptr};
        conflict = true;
      }
      outcome.items.emplace_back().item = tables[i].items->Read(scope, keys[i]);
    }
    if (conflict) return Error::TransactionCanceled(std::move(reasons));
  }
  for (size_t i = 0; i < outcome.items.size(); ++i) {
    if (!Counted(args.return_consumed_capacity, tables[i])) continue;
    // Twice a consistent read of each item, rounded per item; a missing one still costs.
    ConsumedCapacity consumed;
    const std::optional<StoredItem>& item = outcome.items[i].item;
    consumed.table_units = 2 * ReadUnits(item ? item->size_bytes : 0, true);
    ChargeRead(tables[i], consumed, now_ms);
    if (!args.partiql) CountAccess(tables[i], args.gets[i].key, nullptr, consumed, false, now_ms);
    ConsumedCapacity& total = TableConsumption(outcome.consumed_capacity, args.gets[i].table_name);
    total.kind = ConsumedCapacity::Kind::kRead;
    total.Add(consumed);
  }
  if (args.return_consumed_capacity == ReturnConsumedCapacity::kNone) {
    outcome.consumed_capacity.clear();
  }
  for (size_t i = 0; i < outcome.items.size(); ++i)
    Project(args.gets[i].projection, outcome.items[i]);
  return outcome;
}

}  // namespace ddbd
