#include "server/content_encoding.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "protocol/ascii.h"

namespace ddbd {
namespace {

// Room to inflate `body` into. gzip's trailer gives the size (modulo 4 GiB) of its last member:
// a body of one member, as clients send, fits exactly (one byte more, so a full buffer means
// more is coming), never grown and copied, so a 16 MB body is not held in a 32 MB buffer.
size_t InitialSize(std::string_view body, uint32_t wrapper) {
  constexpr size_t kGzipFraming = 18;  // 10-byte header, 8-byte trailer
  if (wrapper == ISAL_GZIP && body.size() >= kGzipFraming) {
    const auto* end = reinterpret_cast<const uint8_t*>(body.data() + body.size());
    const size_t size = end[-4] | (end[-3] << 8) | (end[-2] << 16) | (size_t{end[-1]} << 24);
    if (size > 0) return size + 1;
  }
  return std::max<size_t>(body.size() * 4, 64 * 1024);
}

// Inflates `body` in the given wrapper (ISAL_GZIP, ISAL_ZLIB or ISAL_DEFLATE); gzip members
// that follow one another are decoded in turn, as one body.
BodyDecoding Inflate(std::string_view body, uint32_t wrapper, size_t max_bytes, std::string& out) {
  auto state = std::make_unique<inflate_state>();  // ~85 KB: not on the I/O thread's stack
  isal_inflate_init(state.get());
  state->crc_flag = wrapper;
  state->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(body.data()));
  state->avail_in = static_cast<uint32_t>(body.size());
  out.clear();
  size_t produced = 0;
  out.resize(std::min(max_bytes + 1, InitialSize(body, wrapper)));
  while (true) {
    state->next_out = reinterpret_cast<uint8_t*>(out.data() + produced);
    state->avail_out = static_cast<uint32_t>(out.size() - produced);
    const uint32_t before = state->avail_out;
    const int result = isal_inflate(state.get());
    produced += before - state->avail_out;
    if (result < 0) return BodyDecoding::kBroken;
    if (produced > max_bytes) return BodyDecoding::kTooLarge;
    if (state->block_state == ISAL_BLOCK_FINISH) {
      if (state->avail_in == 0) break;
      if (wrapper != ISAL_GZIP) return BodyDecoding::kBroken;  // bytes after the stream
      uint8_t* const next = state->next_in;
      const uint32_t left = state->avail_in;
      isal_inflate_reset(state.get());  // the next gzip member
      state->crc_flag = wrapper;
      state->next_in = next;
      state->avail_in = left;
      continue;
    }
    if (state->avail_out == 0) {
      out.resize(std::min(max_bytes + 1, out.size() * 2));
      continue;
    }
    if (state->avail_in == 0) return BodyDecoding::kBroken;  // the stream stops short
  }
  out.resize(produced);
  return BodyDecoding::kDecoded;
}

}  // namespace

BodyDecoding DecodeBody(std::string_view encoding, std::string_view body, size_t max_bytes,
                        std::string& out) {
  const std::string_view name = TrimSpaces(encoding);
  if (name.empty() || EqualsIgnoringCase(name, "identity")) return BodyDecoding::kPlain;
  if (EqualsIgnoringCase(name, "gzip") || EqualsIgnoringCase(name, "x-gzip")) {
    return Inflate(body, ISAL_GZIP, max_bytes, out);
  }
  if (!EqualsIgnoringCase(name, "deflate")) return BodyDecoding::kUnsupported;
  // HTTP's deflate is zlib-wrapped; some clients send the raw stream.
  const BodyDecoding wrapped = Inflate(body, ISAL_ZLIB, max_bytes, out);
  if (wrapped != BodyDecoding::kBroken) return wrapped;
  return Inflate(body, ISAL_DEFLATE, max_bytes, out);
}

// Read for every request: no allocation.
ResponseEncoding ChooseResponseEncoding(std::string_view accept_encoding) {
  // What SDKs send (boto3's "identity", or nothing), first.
  if (accept_encoding.empty() || accept_encoding == "identity") return ResponseEncoding::kNone;
  bool gzip = false;
  bool deflate = false;
  size_t start = 0;
  while (start < accept_encoding.size()) {
    size_t end = accept_encoding.find(',', start);
    if (end == std::string_view::npos) end = accept_encoding.size();
    const std::string_view item = accept_encoding.substr(start, end - start);
    const size_t semicolon = item.find(';');
    const std::string_view coding = TrimSpaces(item.substr(0, semicolon));
    const std::string_view parameters = semicolon == std::string_view::npos
                                            ? std::string_view()
                                            : TrimSpaces(item.substr(semicolon + 1));
    const bool refused = (parameters.starts_with("q=0") || parameters.starts_with("Q=0")) &&
                         parameters.find_first_of("123456789", 2) == std::string_view::npos;
    if (!refused) {
      gzip = gzip || EqualsIgnoringCase(coding, "gzip") || EqualsIgnoringCase(coding, "x-gzip") ||
             coding == "*";
      deflate = deflate || EqualsIgnoringCase(coding, "deflate");
    }
    start = end + 1;
  }
  if (gzip) return ResponseEncoding::kGzip;
  return deflate ? ResponseEncoding::kDeflate : ResponseEncoding::kNone;
}

std::string Compress(std::string_view body, ResponseEncoding encoding) {
  // ~80 KB of state and ~280 KB of level-1 buffer: kept per thread, on the heap (never on a
  // 256 KB I/O-thread stack, nor allocated for every answer).
  thread_local const auto owned = std::make_unique<isal_zstream>();
  thread_local std::vector<uint8_t> level_buffer(ISAL_DEF_LVL1_DEFAULT);
  isal_zstream& stream = *owned;
  isal_deflate_stateless_init(&stream);
  stream.level = 1;
  stream.level_buf = level_buffer.data();
  stream.level_buf_size = static_cast<uint32_t>(level_buffer.size());
  stream.gzip_flag = encoding == ResponseEncoding::kGzip ? IGZIP_GZIP : IGZIP_ZLIB;
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  std::string out(body.size() + body.size() / 8 + 1024, '\0');
  stream.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(body.data()));
  stream.avail_in = static_cast<uint32_t>(body.size());
  stream.next_out = reinterpret_cast<uint8_t*>(out.data());
  stream.avail_out = static_cast<uint32_t>(out.size());
  if (isal_deflate_stateless(&stream) != COMP_OK) return std::string();
  out.resize(stream.total_out);
  return out;
}

std::string_view EncodingName(ResponseEncoding encoding) {
  return encoding == ResponseEncoding::kGzip ? "gzip" : "deflate";
}

}  // namespace ddbd
