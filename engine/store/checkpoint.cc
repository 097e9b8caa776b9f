// Checkpoints: the store's state written as one log segment that replaces the segments before it,
// so the log stays near the size of what it holds and recovery replays little more than that.
//
// Written while requests go on (a "fuzzy" checkpoint). The log is rolled first, with the catalog
// held still: every record from then on goes to segments after the checkpoint's number, and the
// checkpoint holds the tables as they were at the roll. Their items are walked afterwards, a slice
// at a time under each table's read lock, so a write may land before or after the walk passes
// it. Replaying the checkpoint and then the later segments is still exact: each item record says
// what an item is (not how it changed), so the last record of a key wins, and every write after
// the roll has a record after the checkpoint. One more rule makes it safe at a crash: a value the
// walk saw must not outlive the loss of its record, or a crash could keep half of an unfinished
// transaction (or a write never acknowledged). Every value the walk reads has its record
// appended already (records are appended under the table's write lock, a transaction's when it
// ends, before its locks go), so syncing the log after the walk, before the checkpoint is renamed
// into place, makes them all durable first.
//
// Streams are not fuzzy: a stream record says how an item changed, so each stream is copied
// whole right after the roll, under the same hold of the catalog and under its table's read
// lock. Its records up to the roll are all in the copy; those after it are in the log after the
// checkpoint too, and replay skips a record its stream already has.
#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/item_images.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/log_writer.h"
#include "engine/persistence/stream_codec.h"
#include "engine/store/store.h"

namespace ddbd {
namespace {

// Items walked per hold of a table's read lock: writers of that table wait at most this long.
constexpr size_t kWalkSlice = 512;
// Bytes gathered before an append to the checkpoint file.
constexpr size_t kWriteBytes = size_t{1} << 20;
// Bytes appended between syncs of the checkpoint file: one sync of a whole large checkpoint
// would hold up the log's own syncs (and every durable write's answer) behind it.
constexpr size_t kSyncBytes = size_t{8} << 20;

}  // namespace

Status Store::WriteCheckpoint(uint64_t number, const std::vector<CheckpointTable>& tables,
                              const std::vector<StreamState>& streams,
                              const std::function<Status()>& before_install) {
  // Written aside and renamed into place once whole and synced, then the segments it replaces
  // go: a crash at any point leaves either them, or it (with or without them: replaying it
  // after them gives the same state, as each table it names starts afresh).
  FileSystem& files = *files_;
  const std::string& directory = options_.db_path;
  const std::string temporary = directory + "/checkpoint.tmp";
  (void)files.Remove(temporary);  // a failed or crashed checkpoint's
  auto file = files.OpenAppendable(temporary);
  if (!file.ok()) return file.error();
  // Flagged: a reader may skip every segment numbered below it, which it replaces.
  std::string buffer = LogHeader(kLogCheckpoint);
  // Taken after the roll: every token whose record went before it is remembered by then (a
  // transaction marks its token before its group is appended).
  for (const RequestTokens::Completed& token : request_tokens_.CompletedWithin(clock_.NowMs())) {
    AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kRequestToken),
                    EncodeRequestToken({token.token, token.fingerprint, token.completed_ms}));
  }
  // Streams before the tables: a table that has one finds it (by ARN) as it is replayed.
  for (const StreamState& stream : streams) {
    AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kStream), EncodeStreamState(stream));
    for (const StreamRecord& record : stream.records) {
      AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kStreamRecord),
                      EncodeStreamRecord(stream.summary.stream_arn, record));
    }
  }
  Status status = Ok{};
  size_t unsynced = 0;
  uint64_t appended = 0;  // the file's offset of buffer's first byte
  auto flush = [&](size_t at_least) {
    if (status.ok() && buffer.size() >= at_least) {
      status = file.value()->Append(buffer);
      unsynced += buffer.size();
      appended += buffer.size();
      buffer.clear();
    }
    if (status.ok() && unsynced >= kSyncBytes) {
      status = file.value()->Sync();
      unsynced = 0;
    }
  };
  for (const CheckpointTable& table : tables) {
    const std::string& table_id = table.description.table_id;
    // With the count of items about to follow, for which a replay makes room at once (writes
    // since the roll make it a hint, which is all it is used as).
    TableDescription described = table.description;
    described.item_count = table.items->item_count();
    AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kTableCreated),
                    EncodeTableDescription(described));
    // Its number in the log, for the puts after the checkpoint: the record that bound it in
    // this process may be in a segment the checkpoint replaces (journal_records.h).
    AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kTableNumber),
                    EncodeTableNumber({table.items->id(), table_id}));
    // Items as images of their records (item_images.h), which a replay uses where they lie; a
    // replicated table's as records with their write versions.
    ItemImagesWriter images(table_id);
    TableItems::KeyRange range;
    for (bool more = true; more && status.ok();) {
      size_t walked = 0;
      more = false;
      table.items->Walk(range, true,
                        [&](std::string_view key, std::string_view blob, uint32_t size) {
                          if (walked == kWalkSlice) {
                            more = true;
                            return false;
                          }
                          range.lower.assign(key);
                          range.lower_inclusive = false;
                          ++walked;
                          if (!table.versions) {
                            images.Add(key, blob, size);
                            if (images.bytes() >= kItemImagesBytes) {
                              images.AppendTo(buffer, appended);
                            }
                            return true;
                          }
                          ItemRecordFields fields{table_id, key, blob, size, 0, {}};
                          std::optional<WriteVersion> version = table.versions->Find(key);
                          if (version) {
                            fields.version_time_us = version->time_us;
                            fields.version_region = version->region;
                          }
                          AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kItemPut),
                                          EncodeItemRecord(fields));
                          return true;
                        });
      flush(kWriteBytes);
    }
    images.AppendTo(buffer, appended);
    // A replicated table's deletions, with their versions: an older write from another region
    // must not bring an item back after a restart.
    if (table.versions) {
      for (const auto& [key, version] : table.versions->Tombstones()) {
        ItemRecordFields fields{table_id, key, {}, 0, 0, {}};
        fields.version_time_us = version.time_us;
        fields.version_region = version.region;
        AppendLogRecord(buffer, static_cast<uint8_t>(JournalKind::kItemDeleted),
                        EncodeItemRecord(fields));
        flush(kWriteBytes);
      }
    }
  }
  flush(0);
  if (status.ok()) status = file.value()->Sync();
  if (status.ok()) status = before_install();
  if (!status.ok()) return status;
  if (Status renamed = files.Rename(temporary, directory + "/" + LogSegmentName(number));
      !renamed.ok()) {
    return renamed;
  }
  if (Status synced = files.SyncDirectory(directory); !synced.ok()) return synced;
  // The newest first, each removal synced: a crash meanwhile leaves the oldest segments, a
  // log that replays (the newest alone would name tables created in the ones gone).
  auto names = files.List(directory);
  if (!names.ok()) return names.error();
  std::vector<std::string> replaced;
  for (const std::string& name : names.value()) {
    const std::optional<uint64_t> segment = LogSegmentNumber(name);
    if (segment && *segment < number) replaced.push_back(name);
  }
  std::sort(replaced.rbegin(), replaced.rend());
  for (const std::string& name : replaced) {
    if (Status removed = files.Remove(directory + "/" + name); !removed.ok()) return removed;
    if (Status synced = files.SyncDirectory(directory); !synced.ok()) return synced;
  }
  return Ok{};
}

Result<bool> Store::Checkpoint(bool always) {
  Journal* journal = journal_.get();
  if (journal == nullptr || journal->failing()) return false;
  std::lock_guard one_at_a_time(checkpoint_mutex_);
  const uint64_t grown = journal->written_bytes() - log_bytes_at_checkpoint_;
  if (!always) {
    if (options_.checkpoint_log_bytes <= 0 ||
        grown < static_cast<uint64_t>(options_.checkpoint_log_bytes)) {
      return false;
    }
    // A log no larger than what it holds is not worth rewriting yet.
    std::shared_lock catalog(catalog_.mutex);
    if (grown <= static_cast<uint64_t>(catalog_.LiveBytesLocked())) return false;
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<CheckpointTable> tables;
  std::vector<StreamState> streams;
  uint64_t number = 0;
  {
    // The tables as of the roll: no catalog change comes between (each logs under the catalog's
    // exclusive lock). A table being deleted has its deletion logged already. Streams are
    // dumped after the roll under the same hold, so none starts or closes in between; a record
    // added since the roll is in the dump and the log after it both, and replay keeps one.
    std::shared_lock catalog(catalog_.mutex);
    for (const auto& [name, entry] : catalog_.tables) {
      if (entry->description.table_status == TableStatus::kDeleting) continue;
      tables.push_back({entry->description, entry->items, entry->versions});
    }
    auto rolled = journal->Roll();
    if (!rolled.ok()) return rolled.error();
    number = rolled.value();
    streams = catalog_.DumpStreamsLocked();
  }
  const uint64_t rolled_at_bytes = journal->written_bytes();
  if (Status written =
          WriteCheckpoint(number, tables, streams, [journal] { return journal->Sync(); });
      !written.ok()) {
    return written.error();
  }
  log_bytes_at_checkpoint_ = rolled_at_bytes;
  checkpoint_durations_.Observe(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now() - started)
                                    .count());
  return true;
}

void Store::StartCheckpointer() {
  if (!journal_ || options_.checkpoint_log_bytes <= 0 || checkpointer_) return;
  checkpointer_ = std::make_unique<PeriodicTask>(
      std::chrono::milliseconds(100),  // a look at two counters, unless one is due
      [this] {
        // A failure (a full disk) leaves the log as it was; the next round tries again.
        (void)Checkpoint(false);
        return false;
      },
      PeriodicTask::Priority::kNiced);
}

void Store::StopCheckpointer() { checkpointer_.reset(); }

}  // namespace ddbd
