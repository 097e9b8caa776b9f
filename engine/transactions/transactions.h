// Transactions: TransactWriteItems (every action decided with all its items held, then all
// committed as one write scope and one log record, or none) and TransactGetItems (every item read
// while all its tables are held), as engine/engine.h states them; the ClientRequestTokens they
// remember, and the items a transaction holds between its decision and its commit
// (EngineOptions::transaction_hold_ms).
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

#include "engine/api/transactions.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/storage/held_items.h"
#include "engine/storage/request_tokens.h"
#include "engine/transactions/delayed_tasks.h"

namespace ddbd {

class WriteScope;           // engine/storage/write_scope.h
struct PendingTransaction;  // transact_write_items.cc

class Transactions {
 public:
  using Done = std::function<void(Result<TransactWriteItemsOutcome>)>;

  explicit Transactions(Catalog& catalog);
  ~Transactions();

  // Engine::TransactWriteItems and Engine::TransactWriteItemsAsync.
  Result<TransactWriteItemsOutcome> Write(const TransactWriteItemsArgs& args);
  // Takes both by reference to what the engine's call owns: no further move on the way.
  void WriteAsync(TransactWriteItemsArgs&& args, Done&& done);
  // Engine::TransactGetItems.
  Result<TransactGetItemsOutcome> Get(const TransactGetItemsArgs& args) const;
  // Commits what is held now and holds nothing more: the first thing to stop when the engine
  // goes, while every table is still there.
  void StopHolding();

  // Items of transactions in flight, which other writes and the TTL sweep leave alone.
  const HeldItems& held() const { return held_; }
  // The ClientRequestTokens within their window (a checkpoint writes them; replay restores them).
  RequestTokens& request_tokens() { return request_tokens_; }

 private:
  // Once its token (if any) let it run: checked (Prepare), decided with its items held (Decide),
  // committed (Commit); with a hold, decided now and committed later.
  void Run(TransactWriteItemsArgs args, Done done);
  Result<std::shared_ptr<PendingTransaction>> Prepare(TransactWriteItemsArgs args);
  Status Decide(PendingTransaction& pending, const WriteScope& scope);
  Result<TransactWriteItemsOutcome> Commit(PendingTransaction& pending, WriteScope& scope);
  // What a repeat of a completed call answers: read units for its items.
  Result<TransactWriteItemsOutcome> Repeat(const TransactWriteItemsArgs& args);

  Catalog& catalog_;
  RequestTokens request_tokens_;
  HeldItems held_;
  std::unique_ptr<DelayedTasks> delayed_;  // only with a hold
  std::atomic<uint64_t> next_id_ = 1;
};

}  // namespace ddbd
