// What the commit path says about each change it makes to a table: the change record, and the
// observers that receive it (streams, the write-ahead log and metrics subscribe here).
//
// Every change to a table's items passes through TableItems::Commit (engine/storage/table_items.h)
// inside a WriteScope, which numbers it and hands one ChangeRecord to each observer before the
// scope releases the table. Capacity units and ItemCollectionMetrics are computed from the same
// record's summary (Committed).
#pragma once

#include <absl/container/inlined_vector.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/replicas.h"
#include "engine/api/streams.h"

namespace ddbd {

// Who made the change.
// kReplication: a change another region made, applied here (global tables: engine/replicas/).
// kLoad: a new table's items loaded before it is ACTIVE (a restore, an import): no reader could
// have seen the table without them, so neither a lagging index nor a stale read holds them back.
enum class ChangeOrigin : uint8_t {
  kUser,
  kTransaction,
  kTimeToLive,
  kBackfill,
  kReplication,
  kLoad
};

// One secondary index's part of a change: the item's entry in it before and after. Sizes are the
// projected entries' DynamoDB sizes (what index write units are counted on).
struct IndexEntryChange {
  size_t index = 0;  // the index's slot (TableIndex::number)
  bool had_entry = false;
  bool has_entry = false;
  uint32_t old_size = 0;
  uint32_t new_size = 0;
  bool key_changed = false;   // both present, under different index keys
  bool item_changed = false;  // both present, same key, a different projected item
  // Whether the entry changed at all (what costs index write units).
  bool changed() const {
    return had_entry != has_entry || (had_entry && (key_changed || item_changed));
  }
};
using IndexEntryChanges = absl::InlinedVector<IndexEntryChange, 2>;

// Where a change came from and what it belongs to; given to Commit.
struct CommitContext {
  ChangeOrigin origin = ChangeOrigin::kUser;
  uint64_t transaction_id = 0;  // shared by all changes of one transaction; 0 outside one
};

class LogGroup;  // engine/persistence/journal.h: records that reach the log as one

// Where the log records of a write scope's changes go, and what the log gives back: the commit
// path carries it from the scope to the observers, so a write's durability travels with it.
struct LogSlot {
  LogGroup* group = nullptr;  // the scope's changes join this group (a transaction's)
  uint64_t ticket = 0;        // the last record logged for the scope; 0: none yet
  // What the table's stream made of the change being committed, until the log takes it with
  // the change (one group: after a crash both are there or neither).
  std::string stream_record;
  // The same of a Kinesis streaming destination's feed (engine/kinesis/kinesis_feed.h), which a
  // table may have beside its stream.
  std::string feed_record;
  // The write version global tables gave it (engine/storage/replica_log.h), until the log takes
  // it with the change: after a restart each region still knows which write is newer.
  std::optional<WriteVersion> replica_version;
};

// One committed change, as observers see it. The views are valid only during the observer call.
struct ChangeRecord {
  uint64_t table_id = 0;        // TableItems::id(): unique for the engine's life
  uint64_t table_sequence = 0;  // 1, 2, ... per table for each change that is not kNone; else 0
  uint64_t log_sequence = 0;    // engine-wide, in commit order; 0 for kNone
  uint64_t transaction_id = 0;
  ChangeOrigin origin = ChangeOrigin::kUser;
  ChangeKind kind = ChangeKind::kNone;
  std::string_view key;       // the item's key bytes (engine/model/key_codec.h)
  std::string_view old_item;  // blob before (engine/model/item_codec.h); empty if none
  std::string_view new_item;  // blob after; empty if none
  uint32_t old_size = 0;      // DynamoDB item sizes; 0 if none
  uint32_t new_size = 0;
  std::span<const IndexEntryChange> indexes;  // only indexes the item has or had an entry in
  int64_t item_collection_bytes = -1;         // after the change; -1 without local indexes
  LogSlot* log = nullptr;                     // the write scope's (never null from Commit)
};

// Receives committed changes. Called on the writing thread inside the write scope, so calls for
// one table come in table_sequence order and never at once; it must copy what it keeps, must
// not block, do I/O or call back into the engine (hand work to a thread of its own instead).
class CommitObserver {
 public:
  virtual ~CommitObserver() = default;
  virtual void OnCommit(const ChangeRecord& change) = 0;
};

// The engine's observers and its log sequence numbers; every table's commit path shares one.
// Subscribe before the first write: the list is read without a lock.
class CommitLog {
 public:
  void Subscribe(CommitObserver* observer) { observers_.push_back(observer); }
  bool observed() const { return !observers_.empty(); }
  uint64_t NextSequence() { return next_sequence_.fetch_add(1, std::memory_order_relaxed) + 1; }
  void Publish(const ChangeRecord& change) const {
    for (CommitObserver* observer : observers_) observer->OnCommit(change);
  }

 private:
  std::vector<CommitObserver*> observers_;
  std::atomic<uint64_t> next_sequence_ = 0;
};

// What Commit tells its caller: the change's summary, valid after the scope ends.
struct Committed {
  ChangeKind kind = ChangeKind::kNone;
  bool had_item = false;
  uint32_t old_size = 0;
  uint32_t new_size = 0;
  IndexEntryChanges indexes;
  int64_t item_collection_bytes = -1;
  uint64_t table_sequence = 0;
  // The log record that holds it (or, in a scope of several changes, the scope's last so far):
  // what an answer waits for. 0: nothing logged.
  uint64_t ticket = 0;
};

}  // namespace ddbd
