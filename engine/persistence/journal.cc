#include "engine/persistence/journal.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/item_images.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/stream_codec.h"
#include "engine/storage/item_records.h"

namespace ddbd {
namespace {

// Failures kept for waiters still to come; a disk stays full for long, tickets move on.
constexpr size_t kFailuresKept = 4096;

}  // namespace

uint64_t LogGroup::Close() {
  if (closed_) return 0;
  closed_ = true;
  if (journal_ == nullptr || gathered_.bytes().empty()) return 0;
  return journal_->Append(JournalKind::kGroup, gathered_.bytes());
}

uint64_t Journal::Append(JournalKind kind, const std::string& payload, LogGroup* group) {
  if (group != nullptr) {
    group->gathered_.Bytes(static_cast<uint32_t>(kind), payload);
    return 0;
  }
  std::lock_guard lock(mutex_);
  const uint64_t ticket = ++appended_;
  // Under `mutex_`, so tickets follow the log's order.
  writer_->Append(static_cast<uint8_t>(kind), payload,
                  [this, ticket](const Status& status) { Durable(ticket, status); });
  return ticket;
}

void Journal::Register(uint64_t items_id, const std::string& table_id) {
  std::lock_guard lock(ids_mutex_);
  table_ids_[items_id] = {table_id, false};
}

uint64_t Journal::TableCreated(uint64_t items_id, const TableDescription& table) {
  {
    std::lock_guard lock(ids_mutex_);
    table_ids_[items_id] = {table.table_id, false};
  }
  return Append(JournalKind::kTableCreated, EncodeTableDescription(table));
}

uint64_t Journal::TableUpdated(uint64_t, const TableDescription& table) {
  return Append(JournalKind::kTableUpdated, EncodeTableDescription(table));
}

uint64_t Journal::TableDeleted(uint64_t items_id) {
  std::string table_id;
  {
    std::lock_guard lock(ids_mutex_);
    auto it = table_ids_.find(items_id);
    if (it == table_ids_.end()) return 0;
    table_id = std::move(it->second.table_id);
    table_ids_.erase(it);
  }
  return Append(JournalKind::kTableDeleted, EncodeItemRecord({table_id, {}, {}, 0, 0, {}}));
}

void Journal::Recorded(const ChangeRecord& change, std::string_view stream_arn,
                       const StreamRecord& record) {
  if (change.log == nullptr) return;
  // A table has at most one stream and one Kinesis feed, each recording a change once.
  std::string& slot =
      change.log->stream_record.empty() ? change.log->stream_record : change.log->feed_record;
  slot = EncodeStreamRecord(stream_arn, record);
}

void Journal::StreamDelivered(std::string_view stream_arn, uint64_t sequence) {
  Append(JournalKind::kStreamDelivered, EncodeStreamDelivered(stream_arn, sequence));
}

void Journal::StreamClosed(std::string_view stream_arn, int64_t closed_ms) {
  Append(JournalKind::kStreamClosed, EncodeStreamClosed(stream_arn, closed_ms));
}

void Journal::OnCommit(const ChangeRecord& change) {
  std::string streamed;
  std::string fed;
  std::optional<WriteVersion> version;
  if (change.log != nullptr) {
    streamed.swap(change.log->stream_record);
    fed.swap(change.log->feed_record);
    version.swap(change.log->replica_version);
  }
  if (change.kind == ChangeKind::kNone) return;
  // A put (but a replicated table's, whose record holds its write version) names its table by
  // number (kItemPutNumbered); deletions and versioned puts by id.
  const bool numbered = change.kind != ChangeKind::kRemove && !version;
  std::string table_id;
  {
    std::lock_guard lock(ids_mutex_);
    auto it = table_ids_.find(change.table_id);
    if (it == table_ids_.end()) return;
    if (!numbered) {
      table_id = it->second.table_id;
    } else if (!it->second.bound) {
      // Before the table's first numbered put in this process, and under the lock: a put that
      // finds the number bound reaches the log after the binding.
      Append(JournalKind::kTableNumber, EncodeTableNumber({change.table_id, it->second.table_id}));
      it->second.bound = true;
    }
  }
  // The scope's group (a transaction's), else with its stream record one group of its own: after
  // a crash the change is there with its record or neither is.
  LogGroup* outer = change.log != nullptr ? change.log->group : nullptr;
  LogGroup pair(streamed.empty() || outer != nullptr ? nullptr : this);
  LogGroup* into = outer != nullptr ? outer : streamed.empty() ? nullptr : &pair;
  uint64_t ticket = 0;
  if (numbered) {
    // The item as memory keeps it, which recovery uses where it lies in the mapped segment: its
    // record's payload, or a group's member after the members before it and its field's header
    // (sized for the payload's most zeros; where it comes out shorter and its length's varint a
    // byte less, the image is unaligned and recovery copies it).
    size_t payload_at = kLogRecordHeaderBytes;
    if (into != nullptr) {
      const size_t most = kItemPutNumberedPrefixBytes + sizeof(ItemRecord) + change.key.size() +
                          change.new_item.size() + 3;
      payload_at +=
          into->gathered_.bytes().size() +
          FieldWriter::BytesHeaderSize(static_cast<uint32_t>(JournalKind::kItemPutNumbered), most);
    }
    ticket = Append(JournalKind::kItemPutNumbered,
                    EncodeItemPutNumbered(change.table_id, change.key, change.new_item,
                                          change.new_size, payload_at),
                    into);
  } else {
    ItemRecordFields fields{table_id, change.key, {}, 0, 0, {}};
    if (change.kind != ChangeKind::kRemove) {
      fields.blob = change.new_item;
      fields.size = change.new_size;
    }
    if (version) {
      fields.version_time_us = version->time_us;
      fields.version_region = version->region;
    }
    ticket = Append(
        change.kind == ChangeKind::kRemove ? JournalKind::kItemDeleted : JournalKind::kItemPut,
        EncodeItemRecord(fields), into);
  }
  if (!streamed.empty()) Append(JournalKind::kStreamRecord, streamed, into);
  if (!fed.empty()) Append(JournalKind::kStreamRecord, fed, into);
  if (into == &pair) ticket = pair.Close();
  if (change.log != nullptr && ticket != 0) change.log->ticket = ticket;
}

void Journal::RequestTokenCompleted(const RequestTokenFields& token, LogGroup& group) {
  Append(JournalKind::kRequestToken, EncodeRequestToken(token), &group);
}

void Journal::WhenDurable(uint64_t ticket, Done done) {
  if (ticket == 0) return done(Ok{});
  std::unique_lock lock(mutex_);
  if (ticket <= durable_) {
    auto failed = failed_.find(ticket);
    const Status status = failed == failed_.end() ? Status(Ok{}) : failed->second;
    lock.unlock();
    done(status);
    return;
  }
  waiting_.emplace(ticket, std::move(done));
}

void Journal::Durable(uint64_t ticket, const Status& status) {
  std::vector<std::pair<Done, Status>> ready;
  {
    std::lock_guard lock(mutex_);
    durable_ = ticket;
    if (!status.ok()) {
      failed_.emplace(ticket, status);
      while (failed_.size() > kFailuresKept) failed_.erase(failed_.begin());
    }
    for (auto it = waiting_.begin(); it != waiting_.end() && it->first <= ticket;) {
      ready.emplace_back(std::move(it->second), it->first == ticket ? status : Status(Ok{}));
      it = waiting_.erase(it);
    }
  }
  for (auto& [done, result] : ready) done(result);
}

}  // namespace ddbd
