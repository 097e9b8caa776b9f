// The store under EngineOptions::db_path: the directory's lock, the log replayed into the catalog
// at start (damage a crash does not explain refused, or moved aside under point-in-time
// recovery), the journal every later change is logged through, and checkpoints that bound the
// log. Without a db_path there is none: the engine is memory only.
//
// Thread safety: Open and StartCheckpointer before the engine serves; the rest from any thread.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/api/durability.h"
#include "engine/api/statistics.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/periodic_task.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/journal.h"
#include "engine/storage/request_tokens.h"

namespace ddbd {

struct RecoveryPlan;    // engine/persistence/recovery.h
struct SegmentSummary;  // engine/persistence/recovery.h

class Store {
 public:
  Store(Catalog& catalog, RequestTokens& request_tokens);
  ~Store();

  // Opens the store: lock, replay, the journal (attached to the catalog).
  Status Open();
  // The file system the store is kept on, once open (the backups beside it use it too).
  FileSystem* files() { return files_; }
  // The checkpointer's thread (EngineOptions::checkpoint_log_bytes), once open.
  void StartCheckpointer();
  void StopCheckpointer();
  // As Engine::Checkpoint states it.
  Result<bool> Checkpoint(bool always);

  // Null until open, and without a store.
  const Journal* journal() const { return journal_.get(); }
  Journal* journal() { return journal_.get(); }
  // Metrics: the log's bytes when the last checkpoint was rolled, and every checkpoint's time.
  uint64_t log_bytes_at_checkpoint() const { return log_bytes_at_checkpoint_.load(); }
  const LatencyHistogram& checkpoint_durations() const { return checkpoint_durations_; }

 private:
  // A table as a checkpoint writes it: its description when the log was rolled, and its items,
  // walked after.
  struct CheckpointTable {
    TableDescription description;
    std::shared_ptr<const TableItems> items;
    std::shared_ptr<const ReplicaVersions> versions;  // a replicated table's; else null
  };

  Status Replay(uint8_t kind, std::string_view payload);
  // Damage `plan` found that a crash does not explain: refused (InternalServerError naming the
  // file, the offset and what would be lost), or under point-in-time recovery moved aside to
  // <db-path>/lost/ and reported (damage.cc).
  Status ActOnDamage(const RecoveryPlan& plan, const std::vector<SegmentSummary>& segments);
  // Tells EngineOptions::log what recovery did: segments, records, torn tails, checkpoint.
  void ReportRecovery(const RecoveryPlan& plan, const std::vector<SegmentSummary>& segments,
                      size_t records, size_t bytes, int64_t took_ms) const;
  // Writes segment `number` of the store holding `tables` (walked a slice at a time, so writers
  // go on), runs `before_install` (the journal's sync), renames it into place and deletes every
  // segment numbered below it. The ClientRequestTokens still within their window go first,
  // then `streams` (each state, then its records).
  Status WriteCheckpoint(uint64_t number, const std::vector<CheckpointTable>& tables,
                         const std::vector<StreamState>& streams,
                         const std::function<Status()>& before_install);

  // A kItemImages record: the table's records where they lie in the mapped segment (its
  // mapping adopted by mapped_records.h), or copies where they cannot (unaligned, none left).
  // `wide`: a kItemImagesWide record, whose items are copied.
  Status ReplayItemImages(std::string_view payload, bool wide);
  // A kItemPutImage or kItemPutNumbered record's image (`image_bytes`): the put of its item into
  // `table`, its record where it lies when it can, loaded with the puts after it (pending_puts_).
  Status ReplayItemPut(TableItems& table, std::string_view image_bytes);
  // Hands the pending puts to their table (any record but a put needs the ones before it in).
  void LoadPendingPuts();
  // After a failed replay: the pending puts go without a table.
  void DropPendingPuts();
  // Whether `bytes` of images at `images` can be records where they lie: aligned, in the
  // segment being replayed, whose mapping is adopted (once) by the first that can.
  bool ImagesInPlace(const char* images, size_t bytes);
  // `records` more records where they lie in the segment's mapping (ImagesInPlace's).
  void HoldInSegment(size_t records);
  // After the replay: the records of each mapping whose later records replaced or deleted most
  // of its own are copied out, so the mapping goes now rather than with its last record.
  void CopyOutOfSparseMappings();
  // The table of TableId `table_id` for an item record, through item_table_; null if none.
  TableItems* ItemTable(std::string_view table_id);
  // The table a kItemPutNumbered record's `number` names (its latest kTableNumber), through
  // numbered_table_; InternalServerError (malformed) for a number no record bound, or a table
  // that is not there.
  Result<TableItems*> NumberedTable(uint64_t number);
  // InternalServerError: "malformed log record: <what>".
  static Error MalformedRecord(const std::string& what);

  Catalog& catalog_;
  // The segment being replayed: its bytes (no table in it reserves room for more items than
  // an image each could hold, and the records after it), its mapping, and the mapped_records
  // region it was adopted as (-1: not yet, or not possible), held until the segment is done.
  size_t segment_bytes_ = 0;
  size_t later_records_ = 0;  // records in the segments replayed after it
  FileBytes* segment_ = nullptr;
  int segment_region_ = -1;
  bool segment_adoptable_ = true;
  std::vector<ItemRecord*> loading_;  // ReplayItemImages's, kept for its room
  // Puts replayed and not yet loaded, all of `pending_table_`: a log's puts are loaded up to
  // kPendingPuts at a time, so the table looks their keys up ahead of them (one at a time, each
  // look-up in a 10M-item hash waited for its cache miss) and takes its lock once.
  static constexpr size_t kPendingPuts = 128;
  std::vector<ItemRecord*> pending_puts_;
  TableItems* pending_table_ = nullptr;
  // The mappings this replay adopted, each with the records it handed to tables.
  std::vector<std::pair<int, size_t>> adopted_regions_;
  // The table of the last item record replayed, by its TableId: a log's item records mostly
  // follow each other table by table, and a look-up under the catalog's lock each cost 4% of a
  // start. Forgotten at every record that is not an item's (a table created, changed, deleted).
  std::string item_table_id_;
  TableItems* item_table_ = nullptr;
  // The tables' numbers in the log (kTableNumber), as bound so far, and the table of the last
  // numbered put (forgotten with item_table_).
  absl::flat_hash_map<uint64_t, std::string> table_numbers_;
  uint64_t numbered_number_ = 0;
  TableItems* numbered_table_ = nullptr;
  RequestTokens& request_tokens_;  // transactions' ClientRequestTokens, logged and replayed
  const EngineOptions& options_;
  const Clock& clock_;
  std::unique_ptr<FileSystem> own_files_;
  FileSystem* files_ = nullptr;  // own_files_ or EngineOptions::file_system
  std::unique_ptr<FileLock> lock_;
  std::unique_ptr<Journal> journal_;
  // Fills the indexes of the tables replayed, after Open (TableItems::BuildDeferredIndexes).
  std::thread index_builder_;
  // Background checkpoints; stopped before the journal goes. `checkpoint_mutex_`: one
  // checkpoint at a time; `log_bytes_at_checkpoint_` is written under it and read without it.
  std::unique_ptr<PeriodicTask> checkpointer_;
  std::mutex checkpoint_mutex_;
  std::atomic<uint64_t> log_bytes_at_checkpoint_ = 0;
  LatencyHistogram checkpoint_durations_;
};

}  // namespace ddbd
