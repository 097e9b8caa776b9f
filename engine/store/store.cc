// Opening the store: the directory's lock, replaying its log into the catalog and the tables,
// and the journal every later change goes through.
#include "engine/store/store.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <mutex>
#include <vector>

#include "engine/model/item_codec.h"
#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/item_images.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/recovery.h"
#include "engine/persistence/stream_codec.h"
#include "engine/storage/mapped_records.h"

namespace ddbd {

Error Store::MalformedRecord(const std::string& what) {
  return Error::Internal("malformed log record: " + what);
}

namespace {

// Sets what the thread that builds the trees and fills the indexes waits for, each once, at
// the latest when it goes: on every return from Store::Open, an error's too, so that thread
// never waits forever.
struct SetAtReturn {
  std::promise<void>& build_trees;
  std::promise<void>& go;
  bool trees_started = false;
  void StartTrees() {
    if (trees_started) return;
    trees_started = true;
    build_trees.set_value();
  }
  ~SetAtReturn() {
    StartTrees();
    go.set_value();
  }
};

}  // namespace

Store::Store(Catalog& catalog, RequestTokens& request_tokens)
    : catalog_(catalog),
      request_tokens_(request_tokens),
      options_(catalog.options),
      clock_(catalog.clock) {}

Store::~Store() {
  if (index_builder_.joinable()) index_builder_.join();
  StopCheckpointer();
}

Status Store::Open() {
  FileSystem* files = options_.file_system;
  if (files == nullptr) {
    own_files_ = std::make_unique<PosixFileSystem>();
    files = own_files_.get();
  }
  files_ = files;
  const std::string& directory = options_.db_path;
  if (Status made = files->CreateDirectory(directory); !made.ok()) return made;
  auto lock = files->Lock(directory + "/LOCK");
  if (!lock.ok()) return lock.error();
  lock_ = std::move(lock.value());
  catalog_.replaying = true;
  auto names = files->List(directory);
  if (!names.ok()) return names.error();
  // Every segment is read once to judge the log as a whole, before anything is replayed; the
  // records read stay (with the mapped bytes they point into) for the replay.
  uint64_t last_segment = 0;
  std::vector<SegmentSummary> summaries;
  std::vector<std::unique_ptr<FileBytes>> mapped;
  for (const std::string& name : names.value()) {
    const std::optional<uint64_t> number = LogSegmentNumber(name);
    if (!number) continue;
    last_segment = std::max(last_segment, *number);
    auto file = files->Map(directory + "/" + name);
    if (!file.ok()) return file.error();
    auto contents = ReadLog(directory + "/" + name, file.value()->bytes());
    if (!contents.ok()) return contents.error();
    // Its size as written: a grouped segment's zeros past its last group are room, not bytes.
    const bool grouped = (contents.value().flags & kLogGrouped) != 0 && !contents.value().empty;
    const size_t size = grouped ? contents.value().valid_bytes + contents.value().bytes_after
                                : file.value()->bytes().size();
    summaries.push_back(
        {name, *number, size, contents.value().records.size(), std::move(contents.value())});
    mapped.push_back(std::move(file.value()));
  }
  const RecoveryPlan plan = PlanRecovery(summaries, directory);
  // What is not replayed goes now (segments a checkpoint replaced).
  std::vector<bool> replayed(summaries.size());
  for (const RecoveryPlan::Replay& replay : plan.replay) replayed[replay.index] = true;
  for (size_t i = 0; i < summaries.size(); ++i) {
    if (!replayed[i]) {
      summaries[i].contents.records = {};
      mapped[i].reset();
    }
  }
  if (Status judged = ActOnDamage(plan, summaries); !judged.ok()) return judged;
  const auto started = std::chrono::steady_clock::now();
  size_t replayed_records = 0;
  size_t log_bytes = 0;
  later_records_ = 0;
  for (const RecoveryPlan::Replay& replay : plan.replay) {
    later_records_ += summaries[replay.index].contents.records.size();
  }
  for (const RecoveryPlan::Replay& replay : plan.replay) {
    later_records_ -= std::min(later_records_, summaries[replay.index].contents.records.size());
    const std::string& name = summaries[replay.index].name;
    LogContents& contents = summaries[replay.index].contents;
    // Damage moved aside (point-in-time recovery) cut files short: those are read again.
    if (plan.cut) {
      auto file = files->Map(directory + "/" + name);
      if (!file.ok()) return file.error();
      auto again = ReadLog(name, file.value()->bytes());
      if (!again.ok()) return again.error();
      contents = std::move(again.value());
      mapped[replay.index] = std::move(file.value());
    }
    log_bytes += std::min(mapped[replay.index]->bytes().size(), replay.end);
    segment_bytes_ = mapped[replay.index]->bytes().size();
    segment_ = mapped[replay.index].get();
    segment_adoptable_ = true;
    for (const LogRecord& record : contents.records) {
      if (record.offset >= replay.end) break;
      if (Status applied = Replay(record.kind, record.payload); !applied.ok()) {
        DropPendingPuts();
        if (segment_region_ >= 0) mapped_records::Release(segment_region_);
        segment_region_ = -1;
        return Error::Internal(directory + "/" + name + ": " + applied.error().message() +
                               " at offset " + std::to_string(record.offset));
      }
      ++replayed_records;
    }
    LoadPendingPuts();
    contents.records = {};
    // Its images' records hold the mapping now, if any did.
    if (segment_region_ >= 0) mapped_records::Release(segment_region_);
    segment_region_ = -1;
    segment_ = nullptr;
    mapped[replay.index].reset();
  }
  item_table_ = nullptr;
  numbered_table_ = nullptr;
  table_numbers_.clear();
  CopyOutOfSparseMappings();
  ReportRecovery(plan, summaries, replayed_records, log_bytes,
                 std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - started)
                     .count());
  const size_t segment_count = plan.replay.size();
  std::unique_lock catalog(catalog_.mutex);
  // Each table's trees (of items or partitions, TableRecords::DeferOrder), once, then its
  // indexes (TableItems::BuildDeferredIndexes), on a thread of its own, which starts once Open is
  // done (what is set up below takes the tables' write locks, which a build would hold up), the
  // server already answering: point reads at once, writes and walks of a table once its trees
  // are built, reads of its indexes once they are filled (StartDeferredBuild, from here on). A
  // checkpoint written below starts the trees at once and walks each table when it is built.
  // One thread for both: the trees' scratch memory, freed on that thread, is reused by the index
  // entries (freed on another, it stayed taken: 28 MB more at a million items).
  std::vector<std::shared_ptr<TableItems>> replayed_items;
  for (auto& [name, entry] : catalog_.tables) {
    entry->items->StartDeferredBuild();
    replayed_items.push_back(entry->items);
  }
  std::promise<void> build_trees;
  std::promise<void> go;
  SetAtReturn at_return{build_trees, go};
  index_builder_ =
      std::thread([tables = std::move(replayed_items), trees = build_trees.get_future(),
                   started = go.get_future()]() mutable {
        trees.wait();
        std::vector<std::shared_ptr<TableItems>> unbuilt;
        for (const std::shared_ptr<TableItems>& items : tables) {
          if (items->EndDeferredOrder()) unbuilt.push_back(items);
        }
        started.wait();
        for (const std::shared_ptr<TableItems>& items : unbuilt) items->BuildDeferredIndexes();
      });
  // A log much larger than what it holds (overwritten and deleted items, many starts) is
  // rewritten as one segment of the current state before anything else is written.
  if (segment_count > 1 &&
      (log_bytes > 2 * static_cast<size_t>(catalog_.LiveBytesLocked()) + (size_t{1} << 20) ||
       segment_count > 16)) {
    at_return.StartTrees();
    std::vector<CheckpointTable> tables;
    for (const auto& [name, entry] : catalog_.tables) {
      tables.push_back({entry->description, entry->items, entry->versions});
    }
    if (Status written = WriteCheckpoint(last_segment + 1, tables, catalog_.DumpStreamsLocked(),
                                         [] { return Status(Ok{}); });
        !written.ok()) {
      return written;
    }
    ++last_segment;
  }
  catalog_.replaying = false;
  catalog_.replayed_tables.clear();
  for (auto& [name, entry] : catalog_.tables) catalog_.StartEventualConsistency(*entry);
  // Later changes go to a new segment: what a crash left at the end of the last one stays
  // there, ignored.
  auto writer = LogWriter::Open(*files, directory, last_segment + 1, options_.sync, options_.log,
                                plan.previous, plan.previous_may_be_torn);
  if (!writer.ok()) return writer.error();
  writer.value()->SetGroupCommitStart(options_.group_commit_start);
  journal_ = std::make_unique<Journal>(std::move(writer.value()));
  catalog_.journal = journal_.get();
  for (const auto& [name, entry] : catalog_.tables) {
    journal_->Register(entry->items->id(), entry->description.table_id);
  }
  catalog_.log.Subscribe(journal_.get());
  // A restore a crash cut short never answered, an import it cut short was never done: the
  // table goes, logged like any deletion (the import's record says FAILED, imports.h).
  std::vector<std::string> unfinished;
  for (const auto& [name, entry] : catalog_.tables) {
    const auto& restore = entry->description.restore_summary;
    if ((restore && restore->restore_in_progress) || entry->description.import_in_progress) {
      unfinished.push_back(name);
    }
  }
  for (const std::string& name : unfinished) {
    catalog_.CommitLocked(
        {CatalogChange::Kind::kDeleteTable, name, nullptr, {}, 0, clock_.NowMs(), {}});
  }
  // Streams observe their tables only now: replayed changes were not streamed again (their
  // records were restored as the log kept them).
  for (const auto& [name, entry] : catalog_.tables) {
    catalog_.AttachStreamLocked(*entry);  // its stream and Kinesis feed, if any
    Catalog::SyncInsightsLocked(*entry);  // counting starts anew
    // Point-in-time history starts anew: it is not logged.
    catalog_.SyncHistoryLocked(*entry, clock_.NowMs());
    catalog_.SyncReplicasLocked(*entry);
    entry->items->SetItemCollectionLimit(options_.item_collection_limit_bytes);
  }
  catalog.unlock();
  return Ok{};
}

Status Store::Replay(uint8_t kind, std::string_view payload) {
  // Read only by the records that need it: item records, nearly all of a log, do not.
  auto now_ms = [this] { return clock_.NowMs(); };
  // Tables by TableId, as the records name them.
  auto& replayed = catalog_.replayed_tables;
  auto find = [&replayed](std::string_view table_id) -> TableEntry* {
    auto it = replayed.find(absl::string_view(table_id.data(), table_id.size()));
    return it == replayed.end() ? nullptr : it->second;
  };
  // Streams by ARN, aged out or not: replay is not the moment to let one go.
  auto replayed_stream = [this](std::string_view arn) { return catalog_.streams.FindAny(arn); };
  // A group's members come through here one by one.
  if (kind != static_cast<uint8_t>(JournalKind::kItemPutImage) &&
      kind != static_cast<uint8_t>(JournalKind::kItemPutNumbered) &&
      kind != static_cast<uint8_t>(JournalKind::kGroup)) {
    LoadPendingPuts();
  }
  if (kind != static_cast<uint8_t>(JournalKind::kItemPut) &&
      kind != static_cast<uint8_t>(JournalKind::kItemPutImage) &&
      kind != static_cast<uint8_t>(JournalKind::kItemPutNumbered) &&
      kind != static_cast<uint8_t>(JournalKind::kItemDeleted) &&
      kind != static_cast<uint8_t>(JournalKind::kGroup)) {
    item_table_ = nullptr;
    numbered_table_ = nullptr;  // a kTableNumber among them may bind its number anew
  }
  switch (static_cast<JournalKind>(kind)) {
    case JournalKind::kTableCreated: {
      auto table = DecodeTableDescription(payload);
      if (!table.ok()) return table.error();
      TableDescription& description = table.value();
      // Whatever it was passing through, it has passed: a restarted table is ACTIVE.
      description.table_status = TableStatus::kActive;
      const std::string name = description.table_name;
      std::unique_ptr<TableEntry> entry = catalog_.NewEntry(description);
      // A checkpoint's description counts the items that follow it (checkpoint.cc).
      // Records after it may add items: room for as many (at most as many again), rather than
      // a rehash of the whole table once they pass it.
      if (description.item_count > 0) {
        const size_t count = std::min(static_cast<size_t>(description.item_count),
                                      segment_bytes_ / sizeof(ItemRecord));
        entry->items->ReserveForLoad(count + std::min(count, later_records_));
        entry->description.item_count = 0;  // a hint only: counts are read live (FillCounts)
      }
      if (!description.time_to_live_attribute.empty()) {
        entry->expiry = ExpiryIndex::Attach(*entry->items, description.time_to_live_attribute);
      }
      TableEntry* created = entry.get();
      std::unique_lock lock(catalog_.mutex);
      // A table of this name already there: a rewritten log's copy of it, which starts afresh.
      if (auto it = catalog_.tables.find(name); it != catalog_.tables.end()) {
        replayed.erase(it->second->description.table_id);
        catalog_.tables.erase(it);
      }
      catalog_.CommitLocked(
          {CatalogChange::Kind::kCreateTable, name, std::move(entry), {}, 0, now_ms(), {}});
      replayed[created->description.table_id] = created;
      return Ok{};
    }
    case JournalKind::kTableUpdated: {
      auto table = DecodeTableDescription(payload);
      if (!table.ok()) return table.error();
      TableDescription& description = table.value();
      description.table_status = TableStatus::kActive;
      std::unique_lock lock(catalog_.mutex);
      TableEntry* entry = find(description.table_id);
      if (entry == nullptr) return MalformedRecord("an update of an unknown table");
      // Time to Live: the index follows the attribute.
      if (description.time_to_live_attribute != entry->description.time_to_live_attribute) {
        if (entry->expiry) entry->items->StopObserving(entry->expiry.get());
        entry->expiry.reset();
        if (!description.time_to_live_attribute.empty()) {
          entry->expiry = ExpiryIndex::Attach(*entry->items, description.time_to_live_attribute);
        }
      }
      const std::string name = description.table_name;
      catalog_.CommitLocked(
          {CatalogChange::Kind::kUpdateTable, name, nullptr, description, 0, now_ms(), {}});
      // Indexes added (filled from the items replayed so far) or dropped, as UpdateTable did.
      const IndexChange change = ReindexLocked(*entry);
      if (!change.added.empty() || !change.dropped.empty()) {
        entry->items->ChangeIndexes(change.added, change.dropped, change.entries_of,
                                    change.partition_length, [] {});
      }
      return Ok{};
    }
    case JournalKind::kTableDeleted: {
      auto fields = DecodeItemRecord(payload);
      if (!fields.ok()) return fields.error();
      std::unique_lock lock(catalog_.mutex);
      TableEntry* entry = find(fields.value().table_id);
      if (entry == nullptr) return MalformedRecord("a deletion of an unknown table");
      const std::string name = entry->description.table_name;
      replayed.erase(std::string(fields.value().table_id));
      catalog_.CommitLocked(
          {CatalogChange::Kind::kDeleteTable, name, nullptr, {}, 0, now_ms(), {}});
      return Ok{};
    }
    case JournalKind::kItemPut:
    case JournalKind::kItemDeleted: {
      auto fields = DecodeItemRecord(payload);
      if (!fields.ok()) return fields.error();
      const bool put = static_cast<JournalKind>(kind) == JournalKind::kItemPut;
      TableItems* items = ItemTable(fields.value().table_id);
      if (items == nullptr) return MalformedRecord("an item of an unknown table");
      // A replicated table's change: its write version, known again (replay is one thread).
      if (!fields.value().version_region.empty()) {
        std::shared_lock lock(catalog_.mutex);
        TableEntry* entry = find(fields.value().table_id);
        if (!entry->versions) entry->versions = std::make_shared<ReplicaVersions>();
        entry->versions->Restore(
            fields.value().key,
            {fields.value().version_time_us, std::string(fields.value().version_region)}, !put);
      }
      // Every replayed table defers its indexes to BuildDeferredIndexes (new_entry.cc).
      if (!items->indexes_deferred()) {
        return Error::Internal("a replayed item of a table whose indexes are not deferred");
      }
      items->Load(fields.value().key,
                  put ? std::optional<std::string_view>(fields.value().blob) : std::nullopt,
                  fields.value().size);
      return Ok{};
    }
    case JournalKind::kItemPutImage: {
      auto images = DecodeItemImages(payload);
      if (!images.ok()) return images.error();
      TableItems* items = ItemTable(images.value().table_id);
      if (items == nullptr) return MalformedRecord("an item of an unknown table");
      return ReplayItemPut(*items, images.value().images);
    }
    case JournalKind::kTableNumber: {
      auto bound = DecodeTableNumber(payload);
      if (!bound.ok()) return bound.error();
      table_numbers_[bound.value().number] = std::string(bound.value().table_id);
      return Ok{};
    }
    case JournalKind::kItemPutNumbered: {
      auto put = DecodeItemPutNumbered(payload);
      if (!put.ok()) return put.error();
      auto table = NumberedTable(put.value().table_number);
      if (!table.ok()) return table.error();
      return ReplayItemPut(*table.value(), put.value().images);
    }
    case JournalKind::kItemImages:
      return ReplayItemImages(payload, /*wide=*/false);
    case JournalKind::kItemImagesWide:
      return ReplayItemImages(payload, /*wide=*/true);
    case JournalKind::kRequestToken: {
      auto token = DecodeRequestToken(payload);
      if (!token.ok()) return token.error();
      request_tokens_.Restore(
          {std::string(token.value().token), token.value().fingerprint, token.value().completed_ms},
          now_ms());
      return Ok{};
    }
    case JournalKind::kStream: {
      auto stream = DecodeStreamState(payload);
      if (!stream.ok()) return stream.error();
      StreamDirectory& streams = catalog_.streams;
      // Already replayed from older segments (a checkpoint whose predecessors were not yet
      // deleted): the checkpoint's state replaces it; its records follow.
      if (std::shared_ptr<TableStream> known = streams.FindAny(stream.value().summary.stream_arn)) {
        known->Reset(stream.value());
      } else {
        streams.Add(
            std::make_shared<TableStream>(catalog_.StreamSettings(), clock_, stream.value()));
      }
      return Ok{};
    }
    case JournalKind::kStreamRecord: {
      auto fields = DecodeStreamRecord(payload);
      if (!fields.ok()) return fields.error();
      std::shared_ptr<TableStream> stream = replayed_stream(fields.value().stream_arn);
      if (stream == nullptr) return MalformedRecord("a record of an unknown stream");
      stream->Restore(std::move(fields.value().record));
      return Ok{};
    }
    case JournalKind::kStreamClosed: {
      auto fields = DecodeStreamClosed(payload);
      if (!fields.ok()) return fields.error();
      std::shared_ptr<TableStream> stream = replayed_stream(fields.value().stream_arn);
      if (stream == nullptr) return MalformedRecord("a closing of an unknown stream");
      stream->CloseAt(fields.value().closed_ms);
      return Ok{};
    }
    case JournalKind::kStreamDelivered: {
      auto fields = DecodeStreamDelivered(payload);
      if (!fields.ok()) return fields.error();
      std::shared_ptr<TableStream> stream = replayed_stream(fields.value().stream_arn);
      // A feed gone with its last checkpoint (delivered, aged out): nothing left to mark.
      if (stream != nullptr) stream->SetDelivered(fields.value().sequence);
      return Ok{};
    }
    case JournalKind::kBackup:
    case JournalKind::kExport:
    case JournalKind::kImport:
      return MalformedRecord("a backup's, export's or import's record in the log");
    case JournalKind::kGroup: {
      FieldReader records(payload);
      while (records.Next()) {
        if (records.number() == static_cast<uint32_t>(JournalKind::kGroup) ||
            records.number() > UINT8_MAX) {
          return MalformedRecord("a group's member");
        }
        if (Status applied = Replay(static_cast<uint8_t>(records.number()), records.text());
            !applied.ok()) {
          return applied;
        }
      }
      if (!records.ok()) return MalformedRecord("a group");
      return Ok{};
    }
  }
  // A kind this ddbd does not know: written by a later version.
  return MalformedRecord("unknown kind " + std::to_string(kind));
}

}  // namespace ddbd
