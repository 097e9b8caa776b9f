// The journal: what the engine writes to its write-ahead log. A commit observer for item changes
// and a hook of the catalog's one path for table changes, both appending records (in commit
// order: observers are called under the table's lock, catalog changes under the catalog's) to
// the group-committing LogWriter. Each append gives a ticket, which travels back to the write
// that made it (through its write scope's LogSlot, or the catalog change's return) and out in its
// outcome; the answer asks WhenDurable with it, so it waits for its own record and nothing
// depends on which thread wrote it.
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/api/tables.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_writer.h"
#include "engine/storage/change.h"
#include "engine/storage/stream_state.h"

namespace ddbd {

// Records that reach the log as one (a transaction's writes and its ClientRequestToken): after a
// crash all of them or none. A write scope joins it (WriteScope::JoinLog); Close appends it.
class LogGroup {
 public:
  explicit LogGroup(class Journal* journal) : journal_(journal) {}
  // Closes it, if not yet: an early return still logs what joined.
  ~LogGroup() { Close(); }
  LogGroup(const LogGroup&) = delete;
  LogGroup& operator=(const LogGroup&) = delete;
  // Appends what joined as one record; its ticket (0 when nothing joined, or no journal).
  uint64_t Close();

 private:
  friend class Journal;
  class Journal* journal_;  // null: nothing is logged
  FieldWriter gathered_;
  bool closed_ = false;
};

class Journal final : public CommitObserver, public StreamRecordSink {
 public:
  explicit Journal(std::unique_ptr<LogWriter> writer) : writer_(std::move(writer)) {}
  // Writes what is queued and stops the writer before the waiters' bookkeeping goes.
  ~Journal() { writer_.reset(); }
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // A table that already exists in the log (restored at start): its records need its id.
  void Register(uint64_t items_id, const std::string& table_id);
  // `items_id` is the table's TableItems::id(), which change records carry. Each returns the
  // record's ticket.
  uint64_t TableCreated(uint64_t items_id, const TableDescription& table);
  uint64_t TableUpdated(uint64_t items_id, const TableDescription& table);
  uint64_t TableDeleted(uint64_t items_id);
  // The item change, and with it (one group) the stream record it made: table observers (the
  // table's stream) are told of a change before the engine's (this), and leave their record in
  // the change's LogSlot. Its ticket goes to the slot.
  void OnCommit(const ChangeRecord& change) override;
  void Recorded(const ChangeRecord& change, std::string_view stream_arn,
                const StreamRecord& record) override;
  // Before the stream closes in memory: a checkpoint that sees it closed finds this logged.
  void StreamClosed(std::string_view stream_arn, int64_t closed_ms);
  // A Kinesis feed's records up to `sequence` reached their destination: logged without waiting
  // (a crash before it is durable only sends them again, as Kinesis destinations may).
  void StreamDelivered(std::string_view stream_arn, uint64_t sequence);
  // A TransactWriteItems with a ClientRequestToken completed: logged with its writes (in their
  // group), so after a restart a repeat within the window is still answered as one.
  void RequestTokenCompleted(const RequestTokenFields& token, LogGroup& group);

  // Calls `done` once the record with `ticket` (and so every record before it) is durable, with
  // the error if its record failed, from the log's thread; at once, here, for ticket 0.
  using Done = std::function<void(const Status&)>;
  void WhenDurable(uint64_t ticket, Done done);
  // The last ticket given so far.
  uint64_t appended() {
    std::lock_guard lock(mutex_);
    return appended_;
  }
  // Returns once everything appended so far is durable.
  Status Flush() { return writer_->Flush(); }
  // Returns once everything appended so far is written and synced, whatever the sync policy.
  Status Sync() { return writer_->Sync(); }
  // Later records go to a new segment; returns the number left free before it, for a
  // checkpoint (LogWriter::Roll).
  Result<uint64_t> Roll() { return writer_->Roll(); }
  // Records failed to be written and wait for a retry: new writes should be refused.
  bool failing() const { return writer_->failing(); }
  // Failed attempts to write the log, ever, and the last one's reason.
  uint64_t failures() const { return writer_->failures(); }
  std::string failure() const { return writer_->failure(); }
  // Bytes of records written so far.
  uint64_t written_bytes() const { return writer_->stats().bytes; }
  uint64_t written_records() const { return writer_->stats().records; }
  const LatencyHistogram& sync_latency() const { return writer_->sync_latency(); }

 private:
  friend class LogGroup;
  // Into `group` when given (ticket 0), else to the log: the record's ticket.
  uint64_t Append(JournalKind kind, const std::string& payload, LogGroup* group = nullptr);
  void Durable(uint64_t ticket, const Status& status);

  std::unique_ptr<LogWriter> writer_;
  std::mutex ids_mutex_;
  struct TableName {
    std::string table_id;
    bool bound = false;  // its number's kTableNumber is in the log (this process's)
  };
  // By TableItems id, which is also the table's number in the log (kItemPutNumbered).
  absl::flat_hash_map<uint64_t, TableName> table_ids_;
  std::mutex mutex_;
  uint64_t appended_ = 0;              // tickets given out: records appended, in log order
  uint64_t durable_ = 0;               // records the log has answered for, in order
  std::map<uint64_t, Status> failed_;  // recent tickets whose record failed
  std::multimap<uint64_t, Done> waiting_;
};

}  // namespace ddbd
