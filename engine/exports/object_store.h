// Where exports write (and imports read): S3's buckets and keys, behind an interface. ddbd's own
// is a directory (DirectoryObjectStore: --s3-dir DIR keeps bucket b in DIR/b/); an S3-compatible
// server is another.
//
// Failures carry the code and message an export or import reports as FailureCode and
// FailureMessage (S3NoSuchBucket for a bucket that is not there, as DynamoDB reports it).
//
// Thread safety: a store may be used from any thread; an ObjectWriter by one at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ddbd {

struct ObjectFailure {
  std::string code;
  std::string message;
};

// An object being written: nobody sees it until Commit, which publishes it whole (written aside,
// synced, renamed into place). Dropped uncommitted, it leaves nothing.
class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;
  virtual std::optional<ObjectFailure> Append(std::string_view bytes) = 0;
  virtual std::optional<ObjectFailure> Commit() = 0;
};

struct ObjectInfo {
  std::string key;
  int64_t size = 0;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;
  // A new object at `key` in `bucket` (replacing any there once committed).
  virtual std::unique_ptr<ObjectWriter> Create(const std::string& bucket, const std::string& key,
                                               ObjectFailure& failure) = 0;
  // The object's bytes.
  virtual std::optional<std::string> Read(const std::string& bucket, const std::string& key,
                                          ObjectFailure& failure) const = 0;
  // Every object whose key starts with `prefix`, in key order.
  virtual std::optional<std::vector<ObjectInfo>> List(const std::string& bucket,
                                                      const std::string& prefix,
                                                      ObjectFailure& failure) const = 0;
};

// --s3-dir: bucket `b` is the directory `root`/b (which must exist: S3NoSuchBucket otherwise),
// key "x/y.json" the file `root`/b/x/y.json. A key with an empty, "." or ".." segment is refused
// (S3InvalidKey): no key reaches outside its bucket's directory.
std::unique_ptr<ObjectStore> NewDirectoryObjectStore(std::string root);

// Without a bucket store: every call fails with S3NoSuchBucket, naming the option that gives one.
std::unique_ptr<ObjectStore> NewAbsentObjectStore();

}  // namespace ddbd
