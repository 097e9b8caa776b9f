// An export's file as it goes out: lines gzip-compressed (ISA-L's igzip, level 1: the fastest
// codec at hand, as DynamoDB's own files are plain gzip) into an ObjectWriter, with the MD5 of
// the bytes written, from which the files manifest's md5Checksum and etag come.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/exports/object_store.h"

namespace ddbd {

// MD5 as S3 and DynamoDB's manifests give it: base64 of the digest (md5Checksum, the .md5 files),
// and a single-part upload's multipart-style ETag: hex MD5 of the digest, then "-1".
struct Md5Text {
  std::string base64;
  std::string etag;
};
Md5Text Md5Of(std::string_view bytes);

class GzipObject {
 public:
  explicit GzipObject(std::unique_ptr<ObjectWriter> writer);
  ~GzipObject();
  GzipObject(const GzipObject&) = delete;
  GzipObject& operator=(const GzipObject&) = delete;

  // Buffers `line` (compressing a block at a time).
  std::optional<ObjectFailure> Add(std::string_view line);
  // Compresses what is left, ends the gzip member and commits the object.
  std::optional<ObjectFailure> Finish();
  const Md5Text& md5() const { return md5_text_; }
  int64_t compressed_bytes() const { return compressed_bytes_; }

 private:
  std::optional<ObjectFailure> Deflate(bool last);

  struct State;
  std::unique_ptr<State> state_;
  std::unique_ptr<ObjectWriter> writer_;
  std::string pending_;
  std::string out_;
  Md5Text md5_text_;
  int64_t compressed_bytes_ = 0;
};

}  // namespace ddbd
