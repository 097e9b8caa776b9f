// Where exports write (and imports read): S3's buckets and keys, behind an interface. ddbd's own
// is a directory (engine/exports/object_store.h: --s3-dir DIR keeps bucket b in DIR/b/); an
// S3-compatible server's is the server's to give (server/s3_buckets.h: --s3-endpoint), through
// EngineOptions::buckets.
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
// synced, renamed into place, by the directory; one PUT, by an S3 server). Dropped uncommitted,
// it leaves nothing.
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

}  // namespace ddbd
