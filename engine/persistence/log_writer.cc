#include "engine/persistence/log_writer.h"

#include <chrono>
#include <cstdio>

#include "engine/persistence/log_format.h"

namespace ddbd {

std::string LogSegmentName(uint64_t number) {
  char name[32];
  std::snprintf(name, sizeof name, "%010llu.log", static_cast<unsigned long long>(number));
  return name;
}

std::optional<uint64_t> LogSegmentNumber(std::string_view name) {
  if (name.size() != 14 || !name.ends_with(".log")) return std::nullopt;
  uint64_t number = 0;
  for (char c : name.substr(0, 10)) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + static_cast<uint64_t>(c - '0');
  }
  return number;
}

LogWriter::LogWriter(FileSystem& files, std::string directory, SyncPolicy policy, LogSink log)
    : files_(files), directory_(std::move(directory)), policy_(policy), log_(std::move(log)) {}

Result<std::unique_ptr<LogWriter>> LogWriter::Open(FileSystem& files, std::string directory,
                                                   uint64_t segment, SyncPolicy policy, LogSink log,
                                                   PreviousSegment previous,
                                                   bool previous_may_be_torn) {
  std::unique_ptr<LogWriter> writer(
      new LogWriter(files, std::move(directory), policy, std::move(log)));
  writer->previous_ = previous;
  writer->previous_may_be_torn_ = previous_may_be_torn;
  if (Status started = writer->StartSegment(segment); !started.ok()) return started.error();
  writer->stats_.segment = segment;
  writer->starter_->writer = writer.get();
  writer->thread_ = std::thread([raw = writer.get()] { raw->Run(); });
  return writer;
}

LogWriter::~LogWriter() {
  {
    std::lock_guard lock(starter_->mutex);
    starter_->writer = nullptr;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

Status LogWriter::StartSegment(uint64_t number) {
  // A number is never used twice: a segment whose start failed stays as it is (empty or a
  // partial header, which readers take for an empty segment).
  next_segment_ = number + 1;
  // Under kFull a segment grows ahead of its writes, so each group's sync carries only its bytes.
  const std::string path = directory_ + "/" + LogSegmentName(number);
  auto file =
      policy_ == SyncPolicy::kFull ? files_.OpenPreallocated(path) : files_.OpenAppendable(path);
  if (!file.ok()) return file.error();
  // The segment written before, up to its last good record: a reader checks it is all there.
  const PreviousSegment previous =
      file_ != nullptr ? PreviousSegment{segment_, segment_bytes_} : previous_;
  const std::string header =
      LogHeader(kLogGrouped | (previous_may_be_torn_ ? kLogPreviousMayBeTorn : 0), previous);
  if (Status appended = file.value()->Append(header); !appended.ok()) return appended;
  if (Status synced = file.value()->Sync(); !synced.ok()) return synced;
  previous_may_be_torn_ = false;
  file_ = std::move(file.value());
  segment_ = number;
  segment_bytes_ = header.size();
  return Ok{};
}

void LogWriter::SetGroupCommitStart(GroupCommitStart start_when) {
  std::lock_guard lock(mutex_);
  start_when_ = std::move(start_when);
}

void LogWriter::Append(uint8_t kind, std::string_view payload, Durable durable) {
  bool ask = false;
  {
    std::lock_guard lock(mutex_);
    AppendLogRecord(queued_, kind, payload);
    waiting_.push_back(std::move(durable));
    ++queued_count_;
    if (start_when_) {
      ask = !start_asked_;
      start_asked_ = true;
    }
  }
  // start_when_ is set before the first Append and not after: read without the lock.
  if (!start_when_) {
    wake_.notify_one();
  } else if (ask) {
    start_when_([starter = starter_] {
      std::lock_guard lock(starter->mutex);
      if (starter->writer != nullptr) starter->writer->Started();
    });
  }
}

void LogWriter::Started() {
  {
    std::lock_guard lock(mutex_);
    start_asked_ = false;
    started_ = true;
  }
  wake_.notify_one();
}

bool LogWriter::GroupReady() const { return !waiting_.empty() && (started_ || !start_when_); }

Status LogWriter::Flush() {
  std::unique_lock lock(mutex_);
  const uint64_t wanted = queued_count_;
  // Whoever waits for the records needs no start.
  started_ = true;
  wake_.notify_one();
  done_.wait(lock, [&] { return finished_count_ >= wanted; });
  return last_status_;
}

Status LogWriter::Sync() {
  std::unique_lock lock(mutex_);
  const uint64_t wanted = ++syncs_asked_;
  wake_.notify_one();
  done_.wait(lock, [&] { return syncs_done_ >= wanted; });
  return sync_status_;
}

Result<uint64_t> LogWriter::Roll() {
  std::unique_lock lock(mutex_);
  // One roll at a time (the checkpointer is one thread; a second caller waits its turn).
  done_.wait(lock, [&] { return !roll_asked_ && !rolled_; });
  roll_asked_ = true;
  roll_records_ = waiting_.size();
  roll_bytes_ = queued_.size();
  wake_.notify_one();
  done_.wait(lock, [&] { return rolled_.has_value(); });
  Result<uint64_t> rolled = std::move(*rolled_);
  rolled_.reset();
  done_.notify_all();
  return rolled;
}

std::string LogWriter::failure() const {
  std::lock_guard lock(failure_mutex_);
  return failure_;
}

void LogWriter::Observe(const Status& status) {
  // Told once when writing starts failing and once when it works again, not at every retry.
  const bool was_failing = failing_since_failure_;
  if (!status.ok()) {
    failures_.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard lock(failure_mutex_);
      failure_ = status.error().message();
    }
    if (!was_failing && log_) {
      log_(Severity::kError, "write-ahead log: " + status.error().message() +
                                 "; writes are refused until the log can be written again "
                                 "(reads go on)");
    }
    failing_since_failure_ = true;
  } else if (was_failing) {
    failing_since_failure_ = false;
    if (log_) {
      log_(Severity::kWarning, "write-ahead log: written again after " +
                                   std::to_string(failures()) +
                                   " failed attempts in all; writes are taken again");
    }
  }
}

LogWriter::Stats LogWriter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

Status LogWriter::Write(const std::string& batch, const std::vector<Durable>& waiters, bool sync) {
  Status status = Ok{};
  if (start_new_segment_) {
    status = StartSegment(next_segment_);
    if (status.ok()) start_new_segment_ = false;
  }
  // Records that failed before go first, in their order.
  std::string joined;
  if (!retry_.empty()) joined = retry_ + batch;
  const std::string& bytes = retry_.empty() ? batch : joined;
  // One group, one write (log_format.h: a crash can tear only the last group).
  std::string group;
  if (!bytes.empty()) {
    group.reserve(bytes.size() + 2 * kLogRecordHeaderBytes);
    AppendLogGroup(group, bytes);
  }
  if (status.ok() && !group.empty()) status = file_->Append(group);
  if (status.ok() && (sync || (policy_ == SyncPolicy::kFull && !bytes.empty()))) {
    const auto started = std::chrono::steady_clock::now();
    status = file_->Sync();
    sync_latency_.Observe(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now() - started)
                              .count());
  }
  if (status.ok()) {
    segment_bytes_ += group.size();
    retry_.clear();
    failing_.store(false, std::memory_order_release);
  } else {
    // Kept for the next attempt. What the failure left after the last good record is cut off
    // (a failed sync may have left it unsynced, or synced: either way it is written again); if
    // that fails, the next attempt starts a new segment and the rest stays at this one's end.
    retry_ = bytes;
    failing_.store(true, std::memory_order_release);
    if (!start_new_segment_ && !file_->Truncate(segment_bytes_).ok()) {
      start_new_segment_ = true;
      previous_may_be_torn_ = true;  // what the failure left stays at this segment's end
    }
  }
  Observe(status);
  for (const Durable& durable : waiters) {
    if (durable) durable(status);
  }
  return status;
}

void LogWriter::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    auto asked = [this] {
      return stopping_ || GroupReady() || roll_asked_ || syncs_asked_ > syncs_done_;
    };
    // Records waiting for a retry are tried again at least every 100 ms; records queued while
    // the last group was written go after kGroupWait without a start (the writes that would
    // have joined them did not come). Records queued while this thread waits wake it by their
    // start.
    if (!retry_.empty()) {
      wake_.wait_for(lock, std::chrono::milliseconds(100), asked);
    } else if (just_wrote_ && !waiting_.empty() && start_when_) {
      wake_.wait_for(lock, kGroupWait, asked);
    } else {
      wake_.wait(lock, asked);
    }
    just_wrote_ = false;
    const bool roll = roll_asked_;
    const uint64_t syncs = syncs_asked_;
    // Stopping with nothing left (records still failing get one last try).
    if (stopping_ && waiting_.empty() && !roll && syncs == syncs_done_ && retry_.empty()) return;
    // Everything queued meanwhile goes out in one write and one sync: the group commit.
    std::string batch;
    batch.swap(queued_);
    std::vector<Durable> waiters;
    waiters.swap(waiting_);
    started_ = false;
    const size_t roll_records = roll_records_;
    const size_t roll_bytes = roll_bytes_;
    roll_asked_ = false;
    lock.unlock();
    const size_t count = waiters.size();
    const size_t bytes = batch.size();
    Status status = Ok{};
    std::optional<Result<uint64_t>> rolled;
    if (!roll) {
      status = Write(batch, waiters, syncs > syncs_done_);
    } else {
      // The records before the roll end this segment, synced; the ones after start the next
      // but one.
      std::string after = batch.substr(roll_bytes);
      batch.resize(roll_bytes);
      std::vector<Durable> later(
          std::make_move_iterator(waiters.begin() + static_cast<ptrdiff_t>(roll_records)),
          std::make_move_iterator(waiters.end()));
      waiters.resize(roll_records);
      status = Write(batch, waiters, true);
      const uint64_t free_number = next_segment_;
      Status started = StartSegment(free_number + 1);
      if (!status.ok()) {
        rolled = status.error();
      } else if (!started.ok()) {
        rolled = started.error();
      } else {
        rolled = free_number;
      }
      if (!started.ok()) start_new_segment_ = true;
      status = Write(after, later, syncs > syncs_done_);
    }
    lock.lock();
    // A start that ran while this group was written came before its writers were answered: the
    // next group waits for one after, so the connections answered now can join it (with four
    // connections, all four in one sync rather than two and two).
    started_ = false;
    just_wrote_ = true;
    if (roll) rolled_ = std::move(rolled);
    if (syncs > syncs_done_) {
      syncs_done_ = syncs;
      sync_status_ = status;
    }
    last_status_ = status;
    stats_.segment = segment_;
    stats_.records += count;
    stats_.bytes += bytes;
    ++stats_.batches;
    finished_count_ += count;
    done_.notify_all();
    if (stopping_ && waiting_.empty() && !retry_.empty()) return;  // the last try failed too
  }
}

}  // namespace ddbd
