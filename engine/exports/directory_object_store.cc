// The directory behind --s3-dir, and the store that stands in when there is none
// (engine/exports/object_store.h).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engine/exports/object_store.h"

namespace ddbd {
namespace {

// Objects being written sit beside their final name under this suffix (dot-prefixed), which
// List never shows.
constexpr std::string_view kAsideSuffix = ".ddbd-aside";

ObjectFailure NoSuchBucket(const std::string& bucket) {
  return {"S3NoSuchBucket", "The specified bucket does not exist: " + bucket};
}

ObjectFailure SystemFailure(const std::string& what, const std::string& path, int error) {
  return {"S3AccessDenied", what + " " + path + ": " + std::strerror(error)};
}

// Whether every '/'-separated segment of `key` names a file or directory inside the bucket.
bool SafeKey(std::string_view key) {
  if (key.empty()) return false;
  size_t start = 0;
  while (true) {
    const size_t slash = key.find('/', start);
    const std::string_view segment =
        key.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (segment.empty() || segment == "." || segment == ".." || segment.ends_with(kAsideSuffix) ||
        segment.find('\0') != std::string_view::npos) {
      return false;
    }
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

bool SafeBucket(std::string_view bucket) {
  return !bucket.empty() && bucket != "." && bucket != ".." &&
         bucket.find('/') == std::string_view::npos && bucket.find('\0') == std::string_view::npos;
}

class FileObjectWriter final : public ObjectWriter {
 public:
  FileObjectWriter(int fd, std::string aside, std::string final_path, std::string directory)
      : fd_(fd),
        aside_(std::move(aside)),
        final_(std::move(final_path)),
        directory_(std::move(directory)) {}
  ~FileObjectWriter() override {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(aside_.c_str());
    }
  }

  std::optional<ObjectFailure> Append(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t wrote = ::write(fd_, bytes.data(), bytes.size());
      if (wrote < 0) {
        if (errno == EINTR) continue;
        return SystemFailure("cannot write", aside_, errno);
      }
      bytes.remove_prefix(static_cast<size_t>(wrote));
    }
    return std::nullopt;
  }

  std::optional<ObjectFailure> Commit() override {
    if (::fdatasync(fd_) != 0) return SystemFailure("cannot sync", aside_, errno);
    ::close(fd_);
    fd_ = -1;
    if (::rename(aside_.c_str(), final_.c_str()) != 0) {
      const int error = errno;
      ::unlink(aside_.c_str());
      return SystemFailure("cannot rename into", final_, error);
    }
    const int dir = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
    return std::nullopt;
  }

 private:
  int fd_;
  std::string aside_;
  std::string final_;
  std::string directory_;
};

class DirectoryObjectStore final : public ObjectStore {
 public:
  explicit DirectoryObjectStore(std::string root) : root_(std::move(root)) {}

  std::unique_ptr<ObjectWriter> Create(const std::string& bucket, const std::string& key,
                                       ObjectFailure& failure) override {
    std::string bucket_path;
    if (!FindBucket(bucket, bucket_path, failure)) return nullptr;
    if (!SafeKey(key)) {
      failure = {"S3InvalidKey", "The key " + key + " names no file inside bucket " + bucket +
                                     " (an empty, \".\" or \"..\" segment)"};
      return nullptr;
    }
    const std::filesystem::path path = std::filesystem::path(bucket_path) / key;
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    if (error) {
      failure = SystemFailure("cannot create", path.parent_path().string(), error.value());
      return nullptr;
    }
    const std::string aside =
        (path.parent_path() / ("." + path.filename().string() + std::string(kAsideSuffix)))
            .string();
    const int fd = ::open(aside.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      failure = SystemFailure("cannot create", aside, errno);
      return nullptr;
    }
    return std::make_unique<FileObjectWriter>(fd, aside, path.string(),
                                              path.parent_path().string());
  }

  std::optional<std::string> Read(const std::string& bucket, const std::string& key,
                                  ObjectFailure& failure) const override {
    std::string bucket_path;
    if (!FindBucket(bucket, bucket_path, failure)) return std::nullopt;
    const std::string path = bucket_path + "/" + key;
    if (!SafeKey(key)) {
      failure = {"S3NoSuchKey", "The specified key does not exist: " + key};
      return std::nullopt;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      failure = errno == ENOENT
                    ? ObjectFailure{"S3NoSuchKey", "The specified key does not exist: " + key}
                    : SystemFailure("cannot open", path, errno);
      return std::nullopt;
    }
    std::string bytes;
    char buffer[1 << 16];
    while (true) {
      const ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        failure = SystemFailure("cannot read", path, errno);
        ::close(fd);
        return std::nullopt;
      }
      if (got == 0) break;
      bytes.append(buffer, static_cast<size_t>(got));
    }
    ::close(fd);
    return bytes;
  }

  std::optional<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix,
                                              ObjectFailure& failure) const override {
    std::string bucket_path;
    if (!FindBucket(bucket, bucket_path, failure)) return std::nullopt;
    std::vector<ObjectInfo> objects;
    std::error_code error;
    const std::filesystem::path base(bucket_path);
    for (auto it = std::filesystem::recursive_directory_iterator(base, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file(error)) continue;
      const std::string name = it->path().filename().string();
      if (name.starts_with(".") && name.ends_with(kAsideSuffix)) continue;
      std::string key = std::filesystem::relative(it->path(), base, error).generic_string();
      if (!key.starts_with(prefix)) continue;
      objects.push_back({std::move(key), static_cast<int64_t>(it->file_size(error))});
    }
    if (error) {
      failure = SystemFailure("cannot list", bucket_path, error.value());
      return std::nullopt;
    }
    std::sort(objects.begin(), objects.end(),
              [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
    return objects;
  }

 private:
  bool FindBucket(const std::string& bucket, std::string& path, ObjectFailure& failure) const {
    struct stat status {};
    path = root_ + "/" + bucket;
    if (!SafeBucket(bucket) || ::stat(path.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) {
      failure = NoSuchBucket(bucket);
      return false;
    }
    return true;
  }

  std::string root_;
};

class AbsentObjectStore final : public ObjectStore {
 public:
  std::unique_ptr<ObjectWriter> Create(const std::string& bucket, const std::string&,
                                       ObjectFailure& failure) override {
    failure = Absent(bucket);
    return nullptr;
  }
  std::optional<std::string> Read(const std::string& bucket, const std::string&,
                                  ObjectFailure& failure) const override {
    failure = Absent(bucket);
    return std::nullopt;
  }
  std::optional<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string&,
                                              ObjectFailure& failure) const override {
    failure = Absent(bucket);
    return std::nullopt;
  }

 private:
  static ObjectFailure Absent(const std::string& bucket) {
    return {"S3NoSuchBucket", "The specified bucket does not exist: " + bucket +
                                  " (ddbd keeps buckets in a directory: start it with --s3-dir "
                                  "DIR to use DIR/" +
                                  bucket + "/, or on an S3-compatible server: --s3-endpoint URL)"};
  }
};

}  // namespace

std::unique_ptr<ObjectStore> NewDirectoryObjectStore(std::string root) {
  return std::make_unique<DirectoryObjectStore>(std::move(root));
}

std::unique_ptr<ObjectStore> NewAbsentObjectStore() {
  return std::make_unique<AbsentObjectStore>();
}

}  // namespace ddbd
