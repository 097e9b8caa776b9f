// The items of one table (engine/storage/table_records.h: by key, and for tables with a sort key by
// partition) and of its secondary indexes (a tree each), with item collection sizes.
//
// Memory: each item is one heap record (sizes, key bytes, item blob), a 16-byte slot in a tree
// and a pointer and hash in the hash of keys, so an item costs its bytes plus a few dozen bytes.
//
// Every change to the items goes through Commit, inside a WriteScope (engine/storage/write_scope.h)
// that holds the table's write lock; each change is numbered and published to the table's
// CommitLog (engine/storage/change.h).
//
// Thread safety: all members may be called from any thread; readers share a lock, write scopes
// take it exclusively.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/functional/function_ref.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/storage/change.h"
#include "engine/storage/index_lag.h"
#include "engine/storage/item_history.h"
#include "engine/storage/item_records.h"
#include "engine/storage/table_records.h"
#include "engine/storage/write_scope.h"

namespace ddbd {

// An item's entry in one secondary index: the index's number, the entry's key bytes (index key,
// then table key, so equal index keys stay distinct and ordered), and the projected item.
struct IndexEntry {
  size_t index = 0;
  std::string key;
  StoredItem item;
  // `item` is the whole item (an ALL projection): the index may keep the entry as a pointer to
  // the table's record of the item instead of a copy (ItemRecord::CreateWholeItemEntry).
  bool whole_item = false;
};
// Whether the entries of an ALL projection carry a copy of the item (kCopied: a write compares
// them, a lagging index keeps them) or its size alone (kSizeOnly: for entries made to point at
// the item's record, ItemRecord::CreateWholeItemEntry, as a replay's index build makes them).
enum class WholeItems { kCopied, kSizeOnly };
using IndexEntries = std::vector<IndexEntry>;

class TableItems {
 public:
  // `id` orders write scopes and names the table in change records; `log` (may be null: no
  // observers) must outlive the table.
  TableItems(uint64_t id, CommitLog* log) : id_(id), log_(log) {}
  TableItems() : TableItems(0, nullptr) {}
  ~TableItems();
  TableItems(const TableItems&) = delete;
  TableItems& operator=(const TableItems&) = delete;

  // Keeps the items by partition (tables with a sort key); `prefix_length` gives the length of
  // the partition part of a key, `hashed_keys` whether point reads probe a hash of all keys or
  // go through the partition (TableRecords::UsePartitions). Call before the first write.
  using PrefixLength = std::function<size_t(std::string_view key)>;
  void UsePartitions(PrefixLength prefix_length, bool hashed_keys = true);

  // Whether a put of blob `b` over blob `a` changes nothing (no change, no stream record): the
  // engine's items are equal up to the order of attributes and of map and set members
  // (item_codec.h SameItem). Unset: byte for byte. Call before the first write.
  using SameItem = bool (*)(std::string_view a, std::string_view b);
  void CompareItemsBy(SameItem same) { same_item_ = same; }

  // Gives the table `count` secondary indexes, empty. `entries_of` sets `entries` to the index
  // entries of a stored item from its key bytes, blob and size (used for the item a write
  // replaces or removes), reusing the room of what `entries` held: an index build fills one
  // vector a million times. Call before the first write, or while backfilling is handled
  // elsewhere.
  using EntriesOf = std::function<void(std::string_view key, std::string_view blob, uint32_t size,
                                       WholeItems whole_items, IndexEntries& entries)>;
  // The length of the partition part of an entry's key bytes in the index in slot `slot`: each
  // index keeps its entries by partition, as a table with a sort key keeps its items. Null (as
  // in tests of this class alone): each index is one tree of its entries.
  using IndexPartitionLength = std::function<size_t(size_t slot, std::string_view entry_key)>;
  void SetIndexes(size_t count, EntriesOf entries_of,
                  IndexPartitionLength partition_length = nullptr);
  // Index slots are stable for the table's life. Under the write lock: installs `entries_of`
  // for the new set of indexes and moves the generation on (writes prepared for the old set
  // recompute their entries), empties the `dropped` slots, then fills the `added` ones from every
  // item (backfill). `locked` runs once the lock is held, before the backfill: the engine
  // releases its catalog lock there, so a long backfill holds up this table alone, and no read
  // of this table sees an added index before it is full.
  void ChangeIndexes(const std::vector<size_t>& added, const std::vector<size_t>& dropped,
                     EntriesOf entries_of, IndexPartitionLength partition_length,
                     const std::function<void()>& locked);
  // The generation the index entries handed to Commit must have been computed for.
  uint64_t index_generation() const;
  // Whether a ChangeIndexes is filling added indexes; set before its `locked` callback runs, so
  // whoever checks under the lock that callback releases sees every backfill.
  bool backfilling() const { return backfilling_.load(std::memory_order_acquire); }
  // Returns once the backfill under way, if any, has finished.
  void WaitForBackfill() const;

  // A store's replay leaves the index entries out (DeferIndexes, before the first write): a key's
  // last record wins, so entries made along the way would mostly be made and replaced, and the
  // log's later records come in no order, each entry then costing a descent of its index.
  // EndDeferredOrder then builds the table's trees (before anything walks it), and
  // BuildDeferredIndexes fills every index once from the items in key order, each index's
  // entries arriving in its own order within their partitions (appends), and counts item
  // collections again with their local index entries. Writes in between see no indexes: no
  // entries, no backfill (ChangeIndexes sets the slots only).
  //
  // The build holds the read lock, not the write lock, so a store runs it on a thread of its own
  // while the server already answers (Store::Open): reads of the table's items go on, writes wait
  // for the lock, and reads of an index (WalkIndex, its counts) wait for the build
  // (WaitForIndexes). With a million items and an index it takes a few hundred milliseconds.
  void DeferIndexes();
  // A replay about to load about `items` items (a checkpoint's count): room for them at once.
  void ReserveForLoad(size_t items);
  // A replay's put of `blob` (its DynamoDB size `size`), or deletion (nullopt), while the indexes
  // are deferred: Commit's change (observers told, counts kept) without a decision to call, an
  // item to copy on the way, or index entries. table_items_load.cc, with the two above.
  void Load(std::string_view key, std::optional<std::string_view> blob, uint32_t size);
  // Puts of ready records (a checkpoint's images, or their copies), each taken over: one that
  // changes nothing is destroyed.
  void LoadRecords(std::span<ItemRecord* const> records);
  // Replaces each record `moved` picks with a copy of its own, destroying it (a replay's record
  // in a mapping later records mostly replaced: store.cc), while the indexes are deferred.
  void CopyOutRecords(const std::function<bool(const ItemRecord*)>& moved);
  bool indexes_deferred() const { return indexes_deferred_.load(std::memory_order_relaxed); }
  // Before anything else reaches the table (the server answers only after): from now on, until
  // EndDeferredOrder has built its trees, writes and walks of the items wait (WaitForOrder), and
  // until BuildDeferredIndexes has filled them, readers of an index. Point reads, and walks of
  // one partition (a Query of the table), go on.
  void StartDeferredBuild();
  // Ends the deferred order (the trees built under the read lock, then put in place); true when
  // indexes are left for BuildDeferredIndexes to fill (their readers wait for it).
  bool EndDeferredOrder();
  // Returns once the table's trees are built (EndDeferredOrder), if a replay deferred them.
  // Before taking this table's lock: the build holds its read lock.
  void WaitForOrder() const {
    if (!order_building_.load(std::memory_order_acquire)) [[likely]]
      return;
    WaitForOrderBuild();
  }
  // Ends the deferred order if EndDeferredOrder did not, then fills the indexes.
  void BuildDeferredIndexes();
  // Returns once no index build is under way. Never called under this table's write lock (the
  // build waits for it).
  void WaitForIndexes() const {
    if (!indexes_building_.load(std::memory_order_acquire)) [[likely]]
      return;
    WaitForBuild();
  }

  // Global secondary indexes take each write's entry changes a delay after it (--gsi-lag-ms,
  // engine/storage/index_lag.h); local ones, and a backfill, at once. Call before the first
  // write. CatchUpIndexes applies the changes due now: before an index is read. The changes
  // still on their way, per index slot (metrics).
  void LagGlobalIndexes(IndexLagOptions options);
  void CatchUpIndexes();
  std::vector<uint64_t> PendingIndexChanges() const;

  // Eventually consistent reads of the table and its local indexes see the past (--stale-reads-ms,
  // engine/storage/item_history.h): the table keeps its recent states. Call before the first write.
  // ReadMoment is the moment a read sees: kLatestState for a consistent read, or without the
  // option.
  void KeepRecentStates(ItemHistoryOptions options);
  int64_t ReadMoment(bool consistent_read) const {
    return consistent_read || history_ == nullptr ? kLatestState : history_->ReadMoment();
  }

  // The item with `key` as it was at `moment_ms` (ReadMoment).
  std::optional<StoredItem> Get(std::string_view key, int64_t moment_ms = kLatestState) const;
  // Item collections (tables with local secondary indexes): the bytes of each partition's items
  // and their LSI entries, kept under `limit_bytes`, by the partitions UsePartitions gives (LSIs
  // need a sort key); `local_slots` are the LSIs' slots. Call before the first write.
  void TrackItemCollections(int64_t limit_bytes, std::vector<size_t> local_slots);
  // A new limit for item collections already tracked (a store's replay runs without one: what
  // was written is restored whatever the limit is now).
  void SetItemCollectionLimit(int64_t limit_bytes);

  // The current item a write decides on.
  struct Current {
    std::string_view blob;
    uint32_t size_bytes = 0;
  };
  // What a write decided after seeing the current item.
  struct Write {
    enum class Kind { kPut, kDelete };
    Kind kind = Kind::kPut;
    const StoredItem* item = nullptr;       // kPut: the new item; must outlive Commit
    const IndexEntries* entries = nullptr;  // kPut: its index entries (null: none)
    uint64_t generation = 0;                // the index generation `entries` were computed for
    bool keep_old = false;                  // copy the item replaced or removed into the result
  };
  // `decide` sees the current item (null if none) and returns the write to make, or an error, in
  // which case nothing changes: this is how a condition and its write are atomic.
  using Decide = absl::FunctionRef<Result<Write>(const Current* current)>;
  struct CommitResult {
    Committed change;
    std::optional<StoredItem> old_item;  // when Write::keep_old and there was one
  };
  // The one way items change. Under `scope` (which must hold this table): decides, then inserts,
  // replaces or removes the item with `key`, with its index entries and item collection, numbers
  // the change and publishes it. A put of a byte-identical item and a delete of nothing change
  // nothing (ChangeKind::kNone): byte-identical, or the same by CompareItemsBy. Errors: those of
  // `decide`; ItemCollectionSizeLimitExceeded, changing nothing, if the item outgrows its
  // collection; InternalServerError if `scope` does not hold this table (a bug, refused rather than
  // written unlocked).
  Result<CommitResult> Commit(WriteScope& scope, std::string_view key, Decide decide,
                              const CommitContext& context = {});
  // For a transaction, which decides on all its items before committing any: under `scope`, the
  // current item with `key` (false: none), and whether `write` would fit its item collection
  // (ItemCollectionSizeLimitExceededException otherwise; other writes of the same transaction
  // to the same collection are not counted).
  bool Peek(const WriteScope& scope, std::string_view key, Current* current) const;
  Status CheckCollection(const WriteScope& scope, std::string_view key, const Write& write) const;
  // Under `scope`: the item with `key`.
  std::optional<StoredItem> Read(const ReadScope& scope, std::string_view key) const;

  using KeyRange = ddbd::KeyRange;
  // Calls `visit` for each item in `range`, in key order or reverse, until it returns false.
  // Holds the read lock throughout, so a walk sees one consistent state: the latest, or the one
  // at `moment_ms` (ReadMoment).
  using Visit = ddbd::Visit;
  void Walk(const KeyRange& range, bool forward, const Visit& visit,
            int64_t moment_ms = kLatestState) const;
  // The same over secondary index `index`; a global index is as it is (--gsi-lag-ms makes it lag),
  // whatever `moment_ms`.
  void WalkIndex(size_t index, const KeyRange& range, bool forward, const Visit& visit,
                 int64_t moment_ms = kLatestState) const;
  // The blob and size of the item with `key` at `moment_ms`, for use only inside a Walk/WalkIndex
  // callback (the walk already holds the lock); false if there is none.
  bool FindDuringWalk(std::string_view key, std::string_view* blob, uint32_t* size,
                      int64_t moment_ms = kLatestState) const;

  // Observers of this table alone (its stream, its TTL expiry index), attached and detached by
  // the catalog; they get every change as the engine's observers do, just before them. `existing`
  // (may be empty) is then called with each item stored, under the read lock (writers wait, readers
  // do not), so an index starts from the table as it is; it may also see a change the observer got.
  // `walked` runs after the last `existing`, still under the read lock.
  using ExistingItem = std::function<void(std::string_view key, std::string_view blob)>;
  void Observe(std::shared_ptr<CommitObserver> observer, const ExistingItem& existing,
               const std::function<void()>& walked = {});
  void StopObserving(const CommitObserver* observer);
  // Runs `read` under the table's read lock: no commit is halfway through meanwhile.
  void WhileHeld(const std::function<void()>& read) const;
  // Walks every item, then runs `then`, under one hold of the read lock: what `then` reads of the
  // table's observers matches the items walked (a point-in-time restore's undos).
  void WalkAllThen(const Visit& visit, const std::function<void()>& then) const;

  uint64_t id() const { return id_; }
  int64_t item_count() const;
  int64_t size_bytes() const;
  int64_t index_item_count(size_t index) const;
  int64_t index_size_bytes(size_t index) const;

  // What the commit path changed, ever, by kind; and the removals Time to Live made (metrics).
  struct ChangeCounts {
    uint64_t inserts = 0;
    uint64_t modifies = 0;
    uint64_t removes = 0;
    uint64_t time_to_live_removes = 0;
  };
  ChangeCounts change_counts() const;

 private:
  // An index's entries, kept by its partitions: entries of one partition (often thousands, as
  // an index key such as a status has few values) share their first bytes, so in one tree of
  // all entries nearly every comparison read an entry's record (a cache miss each).
  struct Index {
    std::unique_ptr<TableRecords> entries;
    int64_t size_bytes = 0;
  };
  // An empty index for slot `slot`, by the partition length set last.
  Index NewIndexLocked(size_t slot) const;
  // The record of `entry`, an entry of the item whose table record is `item`: a pointer to
  // `item` for a whole-item entry, unless indexes lag (a lagging index keeps an entry after its
  // item changed, so it keeps copies), else a copy.
  ItemRecord* NewEntryLocked(const IndexEntry& entry, const ItemRecord* item) const;
  // WaitForIndexes' slow path: blocks until BuildDeferredIndexes clears indexes_building_.
  void WaitForBuild() const;
  // WaitForOrder's: until EndDeferredOrder clears order_building_.
  void WaitForOrderBuild() const;
  // The index entries a stored record has (none when the table has no indexes), computed once
  // per write and shared by the collection charge and the index update.
  IndexEntries EntriesOfLocked(const ItemRecord* record) const;
  // entries_of_ as a value: the entries of the item with key `key`, blob `blob` and size `size`.
  IndexEntries EntriesOfItem(std::string_view key, std::string_view blob, uint32_t size,
                             WholeItems whole_items) const {
    IndexEntries entries;
    entries_of_(key, blob, size, whole_items, entries);
    return entries;
  }
  // Under the write lock, after any check that can fail: moves the item at `key` from `existing`
  // to `added` (either may be null; the same record when only index entries change, as in a
  // backfill), its index entries from `old_entries` to `new_entries`, and describes the change in
  // `change` (with the item collection's size after it, -1 untracked), publishing it to the log.
  void ApplyLocked(std::string_view key, ItemRecord* existing, ItemRecord* added,
                   const IndexEntries& old_entries, const IndexEntries& new_entries,
                   int64_t collection_bytes, const CommitContext& context, Committed& change,
                   Garbage& garbage, LogSlot* log);
  // Under the write lock: the collection's bytes (-1 when collections are not tracked).
  int64_t CollectionSizeLocked(std::string_view key) const;
  // Whether index `slot`'s changes wait for their delay (a global index, with the lag on).
  bool LaggedLocked(size_t slot) const;
  // Under the write lock: the lagging changes due now (`all`: every one) applied to the indexes.
  void ApplyLaggedLocked(bool all, Garbage& garbage);
  // Under the read lock: `walk` (a walk of the current items in `range`) with the items that
  // differed at `moment_ms` in their place, removed or added, in the walk's order (the table's
  // keys, or index `index`'s entries; SIZE_MAX: the table).
  void WalkAtLocked(size_t index, const KeyRange& range, bool forward, int64_t moment_ms,
                    const Visit& visit, const std::function<void(const Visit&)>& walk) const;
  // Retires a record the commit path replaced or removed (null: an insertion): into the history,
  // or `garbage`.
  void RetireLocked(std::string_view key, ItemRecord* record, const CommitContext& context,
                    Garbage& garbage);

  int64_t CollectionBytesLocked(uint32_t item_size, const IndexEntries& entries) const;
  // Under the write lock: moves the collection of `key` from the old item's bytes to the new
  // one's (null: none), or fails when that would pass the limit. `collection_bytes`: its size
  // after (-1 untracked).
  Status ChargeCollectionLocked(std::string_view key, const ItemRecord* old_record,
                                const IndexEntries& old_entries, const StoredItem* new_item,
                                const IndexEntries& new_entries, int64_t& collection_bytes);
  int64_t CollectionDeltaLocked(const ItemRecord* old_record, const IndexEntries& old_entries,
                                const StoredItem* new_item, const IndexEntries& new_entries) const;

  friend class WriteScope;
  friend class ReadScope;
  const uint64_t id_;
  CommitLog* const log_;
  uint64_t sequence_ = 0;  // of the last change that was not kNone
  // ChangeCounts' figures: written under the write lock, read without it.
  std::atomic<uint64_t> inserts_ = 0;
  std::atomic<uint64_t> modifies_ = 0;
  std::atomic<uint64_t> removes_ = 0;
  std::atomic<uint64_t> time_to_live_removes_ = 0;
  std::vector<std::shared_ptr<CommitObserver>> observers_;  // this table's own
  mutable std::shared_mutex mutex_;
  TableRecords items_;
  int64_t size_bytes_ = 0;
  std::vector<Index> indexes_;
  EntriesOf entries_of_;
  IndexPartitionLength index_partition_length_;
  SameItem same_item_ = nullptr;
  // Whether a put of `b` over `a` changes nothing (CompareItemsBy).
  bool EqualItems(std::string_view a, std::string_view b) const {
    return a == b || (same_item_ != nullptr && same_item_(a, b));
  }
  std::atomic<uint64_t> index_generation_ = 0;
  std::atomic<bool> backfilling_ = false;
  std::atomic<bool> indexes_deferred_ = false;
  // Between StartDeferredBuild (or EndDeferredOrder) and the end of BuildDeferredIndexes; and
  // between StartDeferredBuild and the end of EndDeferredOrder. Waited on with build_mutex_.
  std::atomic<bool> indexes_building_ = false;
  std::atomic<bool> order_building_ = false;
  mutable std::mutex build_mutex_;
  mutable std::condition_variable build_done_;
  int64_t collection_limit_bytes_ = 0;
  bool track_collections_ = false;  // needs partitions (UsePartitions): LSIs need a sort key
  std::vector<size_t> local_slots_;
  std::unique_ptr<IndexLag> lag_;         // null: every index is updated inside the write
  std::unique_ptr<ItemHistory> history_;  // null: every read sees the latest
  absl::flat_hash_map<std::string, int64_t> collections_;  // partition prefix -> bytes
};

}  // namespace ddbd
