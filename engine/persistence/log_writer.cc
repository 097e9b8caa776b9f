#include "engine/persistence/log_writer.h"

#include <cstdio>

#include "engine/persistence/log_format.h"

namespace ddbd {

std::string LogSegmentName(uint64_t number) {
  char name[32];
  std::snprintf(name, sizeof name, "%010llu.log", static_cast<unsigned long long>(number));
  return name;
}

LogWriter::LogWriter(FileSystem& files, std::string directory, SyncPolicy policy)
    : files_(files), directory_(std::move(directory)), policy_(policy) {}

Result<std::unique_ptr<LogWriter>> LogWriter::Open(FileSystem& files, std::string directory,
                                                   uint64_t segment, SyncPolicy policy) {
  std::unique_ptr<LogWriter> writer(new LogWriter(files, std::move(directory), policy));
  if (Status started = writer->StartSegment(segment); !started.ok()) return started.error();
  writer->stats_.segment = segment;
  writer->thread_ = std::thread([raw = writer.get()] { raw->Run(); });
  return writer;
}

LogWriter::~LogWriter() {
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
  auto file = files_.OpenAppendable(directory_ + "/" + LogSegmentName(number));
  if (!file.ok()) return file.error();
  if (Status header = file.value()->Append(LogHeader()); !header.ok()) return header;
  if (Status synced = file.value()->Sync(); !synced.ok()) return synced;
  file_ = std::move(file.value());
  segment_ = number;
  return Ok{};
}

void LogWriter::Append(uint8_t kind, std::string_view payload, Durable durable) {
  {
    std::lock_guard lock(mutex_);
    AppendLogRecord(queued_, kind, payload);
    waiting_.push_back(std::move(durable));
    ++queued_count_;
  }
  wake_.notify_one();
}

Status LogWriter::Flush() {
  std::unique_lock lock(mutex_);
  const uint64_t wanted = queued_count_;
  done_.wait(lock, [&] { return finished_count_ >= wanted; });
  return last_status_;
}

LogWriter::Stats LogWriter::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void LogWriter::Run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) return;  // stopping, nothing left
    // Everything queued meanwhile goes out in one write and one sync: the group commit.
    std::string batch;
    batch.swap(queued_);
    std::vector<Durable> waiters;
    waiters.swap(waiting_);
    lock.unlock();
    Status status = Ok{};
    if (start_new_segment_) {
      status = StartSegment(next_segment_);
      if (status.ok()) start_new_segment_ = false;
    }
    if (status.ok()) status = file_->Append(batch);
    if (status.ok() && policy_ == SyncPolicy::kFull) status = file_->Sync();
    // A failed batch may have left part of itself in the file: later records go to a new
    // segment, so the partial write stays at this one's end.
    if (!status.ok()) start_new_segment_ = true;
    for (const Durable& durable : waiters) {
      if (durable) durable(status);
    }
    lock.lock();
    last_status_ = status;
    stats_.segment = segment_;
    stats_.records += waiters.size();
    ++stats_.batches;
    finished_count_ += waiters.size();
    done_.notify_all();
  }
}

}  // namespace ddbd
