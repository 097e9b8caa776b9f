#include "engine/persistence/journal.h"

#include <algorithm>
#include <vector>

#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/stream_codec.h"

namespace ddbd {
namespace {

// The last record this thread appended, and the journal it went to: what its request's answer
// waits for. Tickets count per journal, so a ticket alone would not tell namespace A's record 7
// from namespace B's record 7 on a shared I/O thread (issue 34: B's write was answered before
// B's fdatasync because A's last ticket matched).
thread_local const Journal* last_journal = nullptr;
thread_local uint64_t last_ticket = 0;
// Records this thread appended, to any journal: what LastTicket reports, so a request that
// logged anything is told apart from one that did not, whichever journal it wrote to.
thread_local uint64_t appended_here = 0;
// A Group's records, while one lives on this thread.
thread_local FieldWriter* group = nullptr;
// The stream record the change being committed on this thread made, until the change is logged.
thread_local std::string stream_record;
// Failures kept for waiters still to come; a disk stays full for long, tickets move on.
constexpr size_t kFailuresKept = 4096;

}  // namespace

Journal::Group::Group(Journal* journal) : journal_(group == nullptr ? journal : nullptr) {
  if (journal_ != nullptr) group = &gathered_;
}

Journal::Group::~Group() {
  if (journal_ == nullptr) return;
  group = nullptr;
  if (!gathered_.bytes().empty()) journal_->Append(JournalKind::kGroup, gathered_.bytes());
}

void Journal::Append(JournalKind kind, const std::string& payload) {
  if (group != nullptr) {
    group->Bytes(static_cast<uint32_t>(kind), payload);
    return;
  }
  std::lock_guard lock(mutex_);
  const uint64_t ticket = ++appended_;
  last_journal = this;
  last_ticket = ticket;
  ++appended_here;
  // Under `mutex_`, so tickets follow the log's order.
  writer_->Append(static_cast<uint8_t>(kind), payload,
                  [this, ticket](const Status& status) { Durable(ticket, status); });
}

void Journal::Register(uint64_t items_id, const std::string& table_id) {
  std::lock_guard lock(ids_mutex_);
  table_ids_[items_id] = table_id;
}

void Journal::TableCreated(uint64_t items_id, const TableDescription& table) {
  {
    std::lock_guard lock(ids_mutex_);
    table_ids_[items_id] = table.table_id;
  }
  Append(JournalKind::kTableCreated, EncodeTableDescription(table));
}

void Journal::TableUpdated(uint64_t, const TableDescription& table) {
  Append(JournalKind::kTableUpdated, EncodeTableDescription(table));
}

void Journal::TableDeleted(uint64_t items_id) {
  std::string table_id;
  {
    std::lock_guard lock(ids_mutex_);
    auto it = table_ids_.find(items_id);
    if (it == table_ids_.end()) return;
    table_id = std::move(it->second);
    table_ids_.erase(it);
  }
  Append(JournalKind::kTableDeleted, EncodeItemRecord({table_id, {}, {}, 0}));
}

void Journal::Recorded(std::string_view stream_arn, const StreamRecord& record) {
  stream_record = EncodeStreamRecord(stream_arn, record);
}

void Journal::StreamClosed(std::string_view stream_arn, int64_t closed_ms) {
  Append(JournalKind::kStreamClosed, EncodeStreamClosed(stream_arn, closed_ms));
}

void Journal::OnCommit(const ChangeRecord& change) {
  std::string streamed;
  streamed.swap(stream_record);
  if (change.kind == ChangeKind::kNone) return;
  std::string table_id;
  {
    std::lock_guard lock(ids_mutex_);
    auto it = table_ids_.find(change.table_id);
    if (it == table_ids_.end()) return;
    table_id = it->second;
  }
  // With its stream record, one group: after a crash the change is there with its record or
  // neither is.
  Group together(streamed.empty() ? nullptr : this);
  if (change.kind == ChangeKind::kRemove) {
    Append(JournalKind::kItemDeleted, EncodeItemRecord({table_id, change.key, {}, 0}));
  } else {
    Append(JournalKind::kItemPut,
           EncodeItemRecord({table_id, change.key, change.new_item, change.new_size}));
  }
  if (!streamed.empty()) Append(JournalKind::kStreamRecord, streamed);
}

void Journal::RequestTokenCompleted(const RequestTokenFields& token) {
  Append(JournalKind::kRequestToken, EncodeRequestToken(token));
}

uint64_t Journal::LastTicket() { return appended_here; }

void Journal::WhenDurable(Done done) {
  std::unique_lock lock(mutex_);
  // The thread's last record went to another journal: wait for all of this one's so far, which
  // holds whatever this thread appended here.
  // (The min: a journal made at a gone one's address never waits for a ticket it never gave.)
  const uint64_t ticket = last_journal == this ? std::min(last_ticket, appended_) : appended_;
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
