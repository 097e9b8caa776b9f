// HTTP compression as DynamoDB takes and gives it: request bodies sent with Content-Encoding gzip
// (one member or several, concatenated) or deflate (zlib, or raw deflate) are decoded before
// anything reads them, and answers over 4 KB are compressed when the client's Accept-Encoding
// allows. ISA-L's igzip does both (it is already linked for CRC-32).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ddbd {

enum class BodyDecoding {
  kPlain,        // no Content-Encoding, or identity: the body as sent
  kDecoded,      // `out` holds the decoded body
  kUnsupported,  // an encoding other than gzip, deflate or identity
  kBroken,       // not valid for its encoding (truncated, corrupt, a bad checksum)
  kTooLarge,     // decodes to more than `max_bytes`
};

// Decodes `body` sent with Content-Encoding `encoding` (any case) into `out`.
BodyDecoding DecodeBody(std::string_view encoding, std::string_view body, size_t max_bytes,
                        std::string& out);

enum class ResponseEncoding { kNone, kGzip, kDeflate };

// What to compress answers with, from the request's first Accept-Encoding line, by AWS's
// measured rules (content_encoding.cc).
ResponseEncoding ChooseResponseEncoding(std::string_view accept_encoding);

// Answers larger than this are compressed when the client allows.
inline constexpr size_t kCompressAboveBytes = 4096;

// `body` compressed as gzip or zlib-wrapped deflate.
std::string Compress(std::string_view body, ResponseEncoding encoding);

// "gzip" or "deflate", the Content-Encoding header's value.
std::string_view EncodingName(ResponseEncoding encoding);

}  // namespace ddbd
