#include "engine/persistence/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ddbd {
namespace {

Error IoError(const std::string& what, const std::string& path, int error_number) {
  return Error::Internal(what + " " + path + ": " + std::strerror(error_number));
}

class PosixWritableFile final : public WritableFile {
 public:
  PosixWritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixWritableFile() override { ::close(fd_); }
  Status Append(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
      if (written < 0) {
        if (errno == EINTR) continue;
        return IoError("cannot write", path_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(written));
    }
    return Ok{};
  }
  Status Truncate(uint64_t size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return IoError("cannot truncate", path_, errno);
    }
    return Ok{};
  }
  Status Sync() override {
    if (::fdatasync(fd_) != 0) return IoError("cannot sync", path_, errno);
    return Ok{};
  }

 private:
  const std::string path_;
  const int fd_;
};

// OpenPreallocated's file: appends are written at the end of what was appended, and the file is
// grown ahead of them with zeros, a chunk at a time.
class PosixPreallocatedFile final : public WritableFile {
 public:
  PosixPreallocatedFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size), zeroed_(size) {}
  ~PosixPreallocatedFile() override { ::close(fd_); }
  Status Append(std::string_view bytes) override {
    const uint64_t end = size_ + bytes.size();
    if (end > zeroed_) Grow(end);
    if (Status written = WriteAt(bytes, size_); !written.ok()) return written;
    size_ = end;
    // Appended past the zeros (they could not be written: a full disk): the file reaches at
    // least this far, and the next Grow must start after these bytes, not write zeros over
    // them (it did: an acknowledged record's end zeroed by the next group's growth).
    zeroed_ = std::max(zeroed_, size_);
    return Ok{};
  }
  Status Truncate(uint64_t size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return IoError("cannot truncate", path_, errno);
    }
    size_ = size;
    zeroed_ = size;
    return Ok{};
  }
  Status Sync() override {
    if (::fdatasync(fd_) != 0) return IoError("cannot sync", path_, errno);
    return Ok{};
  }

 private:
  // Room for a megabyte of appends past `end`: at most one sync per megabyte makes a new size
  // durable. A disk too full for the zeros gets the appends alone (growing the file as they go).
  void Grow(uint64_t end) {
    constexpr uint64_t kChunk = uint64_t{1} << 20;
    static const std::string zeros(64 * 1024, '\0');
    const uint64_t target = (end / kChunk + 2) * kChunk;
    for (uint64_t at = zeroed_; at < target;) {
      const std::string_view piece(zeros.data(), std::min<uint64_t>(zeros.size(), target - at));
      if (!WriteAt(piece, at).ok()) {
        // What the zeros reached is given back; the append decides.
        (void)::ftruncate(fd_, static_cast<off_t>(zeroed_));
        return;
      }
      at += piece.size();
    }
    zeroed_ = target;
  }
  Status WriteAt(std::string_view bytes, uint64_t at) {
    while (!bytes.empty()) {
      const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(at));
      if (written < 0) {
        if (errno == EINTR) continue;
        return IoError("cannot write", path_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(written));
      at += static_cast<uint64_t>(written);
    }
    return Ok{};
  }

  const std::string path_;
  const int fd_;
  uint64_t size_;    // appended
  uint64_t zeroed_;  // the file's length: zeros from size_ to here
};

class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override { ::close(fd_); }  // closing releases the flock

 private:
  const int fd_;
};

}  // namespace

Status PosixFileSystem::CreateDirectory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
    return IoError("cannot create directory", path, errno);
  }
  return Ok{};
}

Result<std::unique_ptr<WritableFile>> PosixFileSystem::OpenAppendable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot open", path, errno);
  return std::unique_ptr<WritableFile>(new PosixWritableFile(path, fd));
}

Result<std::unique_ptr<WritableFile>> FileSystem::OpenPreallocated(const std::string& path) {
  return OpenAppendable(path);
}

Result<std::unique_ptr<WritableFile>> PosixFileSystem::OpenPreallocated(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot open", path, errno);
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    return IoError("cannot read the size of", path, error);
  }
  return std::unique_ptr<WritableFile>(
      new PosixPreallocatedFile(path, fd, static_cast<uint64_t>(status.st_size)));
}

Result<std::string> PosixFileSystem::ReadFile(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open", path, errno);
  std::string contents;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error_number = errno;
      ::close(fd);
      return IoError("cannot read", path, error_number);
    }
    if (got == 0) break;
    contents.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return contents;
}

namespace {

class HeldBytes final : public FileBytes {
 public:
  explicit HeldBytes(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string_view bytes() const override { return bytes_; }

 private:
  std::string bytes_;
};

class MappedBytes final : public FileBytes {
 public:
  MappedBytes(void* address, size_t size) : address_(address), size_(size) {}
  ~MappedBytes() override {
    if (owned_) ::munmap(address_, size_);
  }
  std::string_view bytes() const override { return {static_cast<const char*>(address_), size_}; }
  bool mapping() const override { return owned_; }
  void Disown() override { owned_ = false; }

 private:
  void* address_;
  size_t size_;
  bool owned_ = true;
};

}  // namespace

Result<std::unique_ptr<FileBytes>> FileSystem::Map(const std::string& path) const {
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.error();
  const size_t size = bytes.value().size();
  if (size == 0) return std::unique_ptr<FileBytes>(std::make_unique<HeldBytes>(std::string()));
  void* address = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (address == MAP_FAILED) return IoError("cannot map", path, errno);
  std::memcpy(address, bytes.value().data(), size);
  ::mprotect(address, size, PROT_READ);  // as a file's mapping is
  return std::unique_ptr<FileBytes>(std::make_unique<MappedBytes>(address, size));
}

Result<std::unique_ptr<FileBytes>> MemoryFileSystem::Map(const std::string& path) const {
  if (!map_copies_) return FileSystem::Map(path);
  auto bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.error();
  return std::unique_ptr<FileBytes>(std::make_unique<HeldBytes>(std::move(bytes.value())));
}

Result<std::unique_ptr<FileBytes>> PosixFileSystem::Map(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open", path, errno);
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error_number = errno;
    ::close(fd);
    return IoError("cannot read", path, error_number);
  }
  const auto size = static_cast<size_t>(status.st_size);
  if (size == 0) {
    ::close(fd);
    return std::unique_ptr<FileBytes>(std::make_unique<HeldBytes>(std::string()));
  }
  void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  const int error_number = errno;
  ::close(fd);
  if (address == MAP_FAILED) return IoError("cannot map", path, error_number);
  ::madvise(address, size, MADV_SEQUENTIAL);
  return std::unique_ptr<FileBytes>(std::make_unique<MappedBytes>(address, size));
}

Result<std::vector<std::string>> PosixFileSystem::List(const std::string& directory) const {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return IoError("cannot list", directory, errno);
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

Status PosixFileSystem::Remove(const std::string& path) {
  if (::unlink(path.c_str()) != 0) return IoError("cannot remove", path, errno);
  return Ok{};
}

Status PosixFileSystem::Rename(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return IoError("cannot rename", from, errno);
  return Ok{};
}

Status PosixFileSystem::SyncDirectory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open", path, errno);
  const int synced = ::fsync(fd);
  const int error_number = errno;
  ::close(fd);
  if (synced != 0) return IoError("cannot sync", path, error_number);
  return Ok{};
}

Result<std::unique_ptr<FileLock>> PosixFileSystem::Lock(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot open", path, errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return Error::Internal(path + " is locked by another process");
  }
  return std::unique_ptr<FileLock>(new PosixFileLock(fd));
}

// The in-memory file system's handles refer back to it by path.
class MemoryWritableFile final : public WritableFile {
 public:
  MemoryWritableFile(MemoryFileSystem& files, std::string path)
      : files_(files), path_(std::move(path)) {}
  Status Append(std::string_view bytes) override {
    std::lock_guard lock(files_.mutex_);
    // As a disk fills: what fits is written, then the write fails.
    const size_t used = files_.UsedLocked();
    const size_t room = files_.space_limit_ > used ? files_.space_limit_ - used : 0;
    files_.files_[path_].bytes.append(bytes.substr(0, std::min(room, bytes.size())));
    if (bytes.size() > room) return IoError("cannot write", path_, ENOSPC);
    return Ok{};
  }
  Status Truncate(uint64_t size) override {
    std::lock_guard lock(files_.mutex_);
    auto& file = files_.files_[path_];
    file.bytes.resize(std::min<size_t>(file.bytes.size(), size));
    file.synced = std::min(file.synced, file.bytes.size());
    return Ok{};
  }
  Status Sync() override {
    std::unique_lock lock(files_.mutex_);
    files_.syncs_released_.wait(lock, [this] { return !files_.syncs_held_; });
    auto& file = files_.files_[path_];
    file.synced = file.bytes.size();
    return Ok{};
  }

 private:
  MemoryFileSystem& files_;
  const std::string path_;
};

class MemoryFileLock final : public FileLock {
 public:
  MemoryFileLock(MemoryFileSystem& files, std::string path)
      : files_(files), path_(std::move(path)) {}
  ~MemoryFileLock() override {
    std::lock_guard lock(files_.mutex_);
    files_.locks_.erase(path_);
  }

 private:
  MemoryFileSystem& files_;
  const std::string path_;
};

Status MemoryFileSystem::CreateDirectory(const std::string&) { return Ok{}; }

Result<std::unique_ptr<WritableFile>> MemoryFileSystem::OpenAppendable(const std::string& path) {
  std::lock_guard lock(mutex_);
  files_.try_emplace(path);
  return std::unique_ptr<WritableFile>(new MemoryWritableFile(*this, path));
}

Result<std::string> MemoryFileSystem::ReadFile(const std::string& path) const {
  std::lock_guard lock(mutex_);
  auto it = files_.find(path);
  if (it == files_.end()) return IoError("cannot open", path, ENOENT);
  return it->second.bytes;
}

Result<std::vector<std::string>> MemoryFileSystem::List(const std::string& directory) const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  const std::string prefix = directory + "/";
  for (const auto& [path, file] : files_) {
    if (path.starts_with(prefix) && path.find('/', prefix.size()) == std::string::npos) {
      names.push_back(path.substr(prefix.size()));
    }
  }
  return names;  // a std::map iterates in order
}

Status MemoryFileSystem::Remove(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (files_.erase(path) == 0) return IoError("cannot remove", path, ENOENT);
  return Ok{};
}

Status MemoryFileSystem::Rename(const std::string& from, const std::string& to) {
  std::lock_guard lock(mutex_);
  auto it = files_.find(from);
  if (it == files_.end()) return IoError("cannot rename", from, ENOENT);
  File moved = std::move(it->second);
  files_.erase(it);
  files_[to] = std::move(moved);
  return Ok{};
}

Result<std::unique_ptr<FileLock>> MemoryFileSystem::Lock(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (!locks_.emplace(path, true).second) {
    return Error::Internal(path + " is locked by another process");
  }
  return std::unique_ptr<FileLock>(new MemoryFileLock(*this, path));
}

void MemoryFileSystem::Crash(size_t torn_bytes) {
  std::lock_guard lock(mutex_);
  for (auto& [path, file] : files_) {
    file.bytes.resize(std::min(file.bytes.size(), file.synced + torn_bytes));
    file.synced = file.bytes.size();
  }
  locks_.clear();
}

std::unique_ptr<MemoryFileSystem> MemoryFileSystem::Image() const {
  auto image = std::make_unique<MemoryFileSystem>();
  std::lock_guard lock(mutex_);
  for (const auto& [path, file] : files_) {
    image->files_[path] = {file.bytes.substr(0, file.synced), file.synced};
  }
  return image;
}

void MemoryFileSystem::HoldSyncs(bool hold) {
  {
    std::lock_guard lock(mutex_);
    syncs_held_ = hold;
  }
  syncs_released_.notify_all();
}

void MemoryFileSystem::SetSpaceLimit(size_t bytes) {
  std::lock_guard lock(mutex_);
  space_limit_ = bytes;
}

std::string& MemoryFileSystem::Contents(const std::string& path) {
  std::lock_guard lock(mutex_);
  return files_[path].bytes;
}

size_t MemoryFileSystem::UsedLocked() const {
  size_t used = 0;
  for (const auto& [path, file] : files_) used += file.bytes.size();
  return used;
}

}  // namespace ddbd
