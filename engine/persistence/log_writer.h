// The write-ahead log's writer, with group commit: records are queued in the order the commit
// path hands them over; a thread of its own writes everything queued in one append and makes it
// durable with one sync, then tells each record's waiter. A write is acknowledged only then, and
// no I/O thread waits meanwhile (the waiter completes the answer through the deferred-answer path).
//
// Segments are files "<directory>/NNNNNNNNNN.log" (log_format.h). A failed write or sync (a full
// disk, an I/O error) fails the records of that batch: their waiters hear the error at once (the
// writes are not acknowledged). But the records are kept and written again, before anything
// after them, with the next batch or every 100 ms, until the disk takes them: their changes are
// already in memory, where readers (and a retried write that finds nothing to change) see them,
// so the log must come to hold them too. What the failure left in the file is cut off first, so
// each record is written once; if that cut fails, the retry goes to a new segment instead.
// failing() tells the engine to refuse new writes meanwhile.
//
// Thread safety: Append and Flush may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/api/statistics.h"
#include "engine/api/sync_policy.h"
#include "engine/error.h"
#include "engine/log_sink.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/log_format.h"

namespace ddbd {

// Segment `number`'s file name ("0000000042.log"), and back (nullopt for other names).
std::string LogSegmentName(uint64_t number);
std::optional<uint64_t> LogSegmentNumber(std::string_view name);

class LogWriter {
 public:
  using Durable = std::function<void(const Status&)>;
  // Starts segment `segment` in `directory` (a new file with its header). `log` hears when
  // writing starts failing (once) and when it works again. `previous`: the newest segment
  // already there and its good length, which the new one's header names (log_format.h);
  // `previous_may_be_torn`: a crash cut a write short after that length.
  static Result<std::unique_ptr<LogWriter>> Open(FileSystem& files, std::string directory,
                                                 uint64_t segment, SyncPolicy policy,
                                                 LogSink log = {}, PreviousSegment previous = {},
                                                 bool previous_may_be_torn = false);
  // Writes and syncs what is queued, answers its waiters, then stops the thread.
  ~LogWriter();
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Queues one record after every record queued before it. `durable` (may be empty) runs on the
  // writer's thread once the record is written (and synced, under kFull), or with the error.
  void Append(uint8_t kind, std::string_view payload, Durable durable);
  // Before the first Append: a group starts once `start_when` runs what it is given
  // (sync_policy.h), which it must do in the end (a start still unrun when the writer stops is
  // not needed: the destructor writes what is queued). Not set (or empty): the first record
  // queued starts one.
  void SetGroupCommitStart(GroupCommitStart start_when);
  // How long records queued while a group was written wait, after it, for a start that runs
  // after it (SetGroupCommitStart) before they go without one.
  static constexpr std::chrono::microseconds kGroupWait{500};
  // Returns once everything queued before the call is written: the last batch's status (each
  // record's own comes to its waiter).
  Status Flush();
  // Returns once everything queued before the call is written and synced, whatever the policy.
  Status Sync();
  // Ends the segment being written after the records queued before the call: later records go to
  // a new segment two numbers on, and the number between is returned, free for a checkpoint
  // that then replays before them. Returns once the records before are written and synced.
  Result<uint64_t> Roll();

  struct Stats {
    uint64_t records = 0;
    uint64_t batches = 0;  // appends + syncs: one per group commit
    uint64_t segment = 0;  // the segment being written
    uint64_t bytes = 0;    // written, ever (records and segment headers)
  };
  Stats stats() const;
  // How long each sync of the log took.
  const LatencyHistogram& sync_latency() const { return sync_latency_; }
  // Whether records failed to be written and wait for a retry (new writes should be refused).
  bool failing() const { return failing_.load(std::memory_order_acquire); }
  // Failed attempts to write or sync, ever; and why the last one failed (empty: none yet).
  uint64_t failures() const { return failures_.load(std::memory_order_relaxed); }
  std::string failure() const;

 private:
  LogWriter(FileSystem& files, std::string directory, SyncPolicy policy, LogSink log);
  // The writer thread's: failures_, failure_ and the operator's log follow `status`.
  void Observe(const Status& status);
  Status StartSegment(uint64_t number);
  void Run();
  // The writer thread's: appends `batch` to the segment and syncs it (under kFull, or when
  // `sync`), tells `waiters`; a failure makes the next batch start a new segment.
  Status Write(const std::string& batch, const std::vector<Durable>& waiters, bool sync);
  // Under `mutex_`: a group may start now.
  bool GroupReady() const;

  // What a posted start reaches: it may run after the writer is gone (the server's queue
  // outlives it), so it goes through this, which the destructor disconnects.
  struct Starter {
    std::mutex mutex;
    LogWriter* writer = nullptr;
  };
  void Started();

  FileSystem& files_;
  const std::string directory_;
  const SyncPolicy policy_;
  // The writer thread's (Open's before it starts).
  std::unique_ptr<WritableFile> file_;
  uint64_t segment_bytes_ = 0;      // of `file_`, up to its last good record
  std::string retry_;               // records whose write failed, to be written before others
  uint64_t segment_ = 0;            // the one `file_` writes
  uint64_t next_segment_ = 0;       // the number the next segment takes
  bool start_new_segment_ = false;  // after a failure
  // The next segment's header says the one before may end in a torn write (a crash's, or a
  // failed write's that could not be cut off).
  bool previous_may_be_torn_ = false;
  PreviousSegment previous_;  // before the first segment this writer starts
  const LogSink log_;
  std::atomic<uint64_t> failures_ = 0;
  mutable std::mutex failure_mutex_;
  std::string failure_;                 // the last failure's reason
  bool failing_since_failure_ = false;  // the writer thread's: told, and not yet cleared

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::string queued_;            // encoded records not yet handed to the thread
  std::vector<Durable> waiting_;  // their waiters, in order
  GroupCommitStart start_when_;   // empty: the first record queued starts a group
  bool start_asked_ = false;      // start_when_ has a start to run
  bool started_ = false;          // a start ran (or a Flush asked) since the last group
  bool just_wrote_ = false;       // the thread's: a group was just written (kGroupWait applies)
  std::shared_ptr<Starter> starter_ = std::make_shared<Starter>();
  uint64_t queued_count_ = 0;    // records queued, ever
  uint64_t finished_count_ = 0;  // records written (or failed), ever
  Status last_status_ = Ok{};
  bool stopping_ = false;
  std::atomic<bool> failing_ = false;  // `retry_` holds records
  // Syncs asked for (Sync, Roll) and done; the last one's status.
  uint64_t syncs_asked_ = 0;
  uint64_t syncs_done_ = 0;
  Status sync_status_ = Ok{};
  // A Roll asked for: it falls after the first `roll_records_` records queued (`roll_bytes_`
  // bytes of `queued_`); `rolled_` (the free number, or the error) answers it.
  bool roll_asked_ = false;
  size_t roll_records_ = 0;
  size_t roll_bytes_ = 0;
  std::optional<Result<uint64_t>> rolled_;
  Stats stats_;
  LatencyHistogram sync_latency_;
  std::thread thread_;
};

}  // namespace ddbd
