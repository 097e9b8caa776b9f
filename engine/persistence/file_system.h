// The files the engine keeps under --db-path, behind an interface so persistence is tested with
// an in-memory file system that tears writes, loses what was not synced and runs out of space.
//
// Thread safety: a FileSystem may be used from any thread; a WritableFile by one at a time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// A file opened for appending. Errors are InternalServerError with the path and the system's
// reason (disk full: "No space left on device").
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(std::string_view bytes) = 0;
  // Makes everything appended so far durable (fdatasync).
  virtual Status Sync() = 0;
  // Cuts the file back to `size` bytes: what a failed append or sync may have left past the
  // last good record goes, so a retry writes it once.
  virtual Status Truncate(uint64_t size) = 0;
};

// Held while the process owns a directory; released when destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

// A file's bytes, read-only, while the object lives.
class FileBytes {
 public:
  virtual ~FileBytes() = default;
  virtual std::string_view bytes() const = 0;
  // A mapping of its own (Map's), which Disown hands to the caller: bytes() stay where they
  // are, and the caller unmaps them. False for bytes held otherwise.
  virtual bool mapping() const { return false; }
  virtual void Disown() {}
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual Status CreateDirectory(const std::string& path) = 0;
  // Opens `path` for appending, creating it if absent.
  virtual Result<std::unique_ptr<WritableFile>> OpenAppendable(const std::string& path) = 0;
  // Opens `path` for appending, creating it if absent, as a file that grows ahead of its appends
  // in chunks written with zeros: a sync after an append then has no new size or blocks to make
  // durable, only the bytes (on ext4 about half the time and CPU of a sync that grows the file).
  // Readers see zeros after the last append. By default: OpenAppendable.
  virtual Result<std::unique_ptr<WritableFile>> OpenPreallocated(const std::string& path);
  virtual Result<std::string> ReadFile(const std::string& path) const = 0;
  // The whole file, to read once (replay): a mapping. By default a copy through ReadFile in a
  // mapping of its own, as the replay may keep parts of it (engine/persistence/item_images.h).
  virtual Result<std::unique_ptr<FileBytes>> Map(const std::string& path) const;
  // The names (not paths) of the files in `directory`, sorted.
  virtual Result<std::vector<std::string>> List(const std::string& directory) const = 0;
  virtual Status Remove(const std::string& path) = 0;
  // Replaces `to` with `from` in one step (how snapshots are published).
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // Makes the directory's entries (files created, renamed, removed) durable.
  virtual Status SyncDirectory(const std::string& path) = 0;
  // An exclusive lock on `path` (created if absent): a second holder, in this process or
  // another, gets an error "<path> is locked by another process".
  virtual Result<std::unique_ptr<FileLock>> Lock(const std::string& path) = 0;
};

// The real one: POSIX files, fdatasync, flock.
class PosixFileSystem final : public FileSystem {
 public:
  Status CreateDirectory(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenAppendable(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenPreallocated(const std::string& path) override;
  Result<std::string> ReadFile(const std::string& path) const override;
  // Mapped, not copied: a log of hundreds of MB costs no copy and no fresh pages to zero.
  Result<std::unique_ptr<FileBytes>> Map(const std::string& path) const override;
  Result<std::vector<std::string>> List(const std::string& directory) const override;
  Status Remove(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDirectory(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> Lock(const std::string& path) override;
};

// For tests: files in memory, each with the bytes appended and how many of them were synced.
// Crash() keeps only the synced bytes plus `torn_bytes` of what followed (a torn write);
// SetSpaceLimit makes appends past a total size fail as a full disk does.
class MemoryFileSystem final : public FileSystem {
 public:
  Status CreateDirectory(const std::string& path) override;
  Result<std::unique_ptr<WritableFile>> OpenAppendable(const std::string& path) override;
  Result<std::string> ReadFile(const std::string& path) const override;
  // A mapping of a copy (FileSystem::Map), or with MapCopies(true) bytes that are no mapping, as
  // a file system without one would give.
  Result<std::unique_ptr<FileBytes>> Map(const std::string& path) const override;
  void MapCopies(bool copies) { map_copies_ = copies; }
  Result<std::vector<std::string>> List(const std::string& directory) const override;
  Status Remove(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Status SyncDirectory(const std::string&) override { return Ok{}; }
  Result<std::unique_ptr<FileLock>> Lock(const std::string& path) override;

  void Crash(size_t torn_bytes = 0);
  // What a crash now would leave (the synced bytes), as another file system, while this one
  // goes on: a crash at any moment of a running engine.
  std::unique_ptr<MemoryFileSystem> Image() const;
  void SetSpaceLimit(size_t bytes);
  // While held, every Sync waits: what a write's answer waited for is observable.
  void HoldSyncs(bool hold);
  // Direct access for tests that corrupt or cut files.
  std::string& Contents(const std::string& path);

 private:
  struct File {
    std::string bytes;
    size_t synced = 0;
  };
  friend class MemoryWritableFile;
  friend class MemoryFileLock;
  size_t UsedLocked() const;
  mutable std::mutex mutex_;
  std::map<std::string, File> files_;
  std::map<std::string, bool> locks_;
  size_t space_limit_ = SIZE_MAX;
  bool syncs_held_ = false;
  std::condition_variable syncs_released_;
  bool map_copies_ = false;
};

}  // namespace ddbd
