#include "server/content_encoding.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
    const size_t size = size_t{end[-4]} | (size_t{end[-3]} << 8) | (size_t{end[-2]} << 16) |
                        (size_t{end[-1]} << 24);
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

namespace {

// An entry's q, as AWS reads it (behaviours-to-match A4, 40 values measured): the first "q=" in
// its parameters, wherever it stands (so "nq=0" counts and "q =0" does not), its value up to the
// next ';' without surrounding spaces; a value that does not parse whole counts as 1 ("0.x"),
// "0." is 0, and above 1 is 1.
double QualityOf(std::string_view parameters) {
  const size_t at = parameters.find("q=");
  if (at == std::string_view::npos) return 1;
  std::string_view value = parameters.substr(at + 2);
  value = TrimSpaces(value.substr(0, value.find(';')));
  char text[32];
  if (value.empty() || value.size() >= sizeof(text)) return 1;
  std::memcpy(text, value.data(), value.size());
  text[value.size()] = '\0';
  char* end = nullptr;
  const double q = std::strtod(text, &end);
  if (end != text + value.size()) return 1;
  return std::min(q, 1.0);
}

// One coding's standing among the entries: its best q, whether it was named (not only `*`), and
// where it first stood.
struct Standing {
  bool listed = false;
  bool named = false;
  double q = 0;
  size_t position = 0;
};

void Consider(Standing& standing, double q, bool named, size_t position) {
  if (named && !standing.named) {  // a named coding sets aside what `*` said of it
    standing = {true, true, q, position};
    return;
  }
  if (standing.named && !named) return;
  if (!standing.listed) standing.position = position;
  standing.q = standing.listed ? std::max(standing.q, q) : q;
  standing.listed = true;
}

}  // namespace

// Read for every request: no allocation. AWS's rules, measured (behaviours-to-match A4): only
// gzip, deflate and `*` (gzip, preferred, and deflate) are candidates, `identity` is ignored;
// the higher q wins, then a named coding over `*`, then the one listed first; q <= 0 refuses.
ResponseEncoding ChooseResponseEncoding(std::string_view accept_encoding) {
  // What SDKs send (boto3's "identity", or nothing), first.
  if (accept_encoding.empty() || accept_encoding == "identity") return ResponseEncoding::kNone;
  Standing gzip;
  Standing deflate;
  size_t start = 0;
  size_t position = 0;
  while (start <= accept_encoding.size()) {
    size_t end = accept_encoding.find(',', start);
    if (end == std::string_view::npos) end = accept_encoding.size();
    const std::string_view item = TrimSpaces(accept_encoding.substr(start, end - start));
    start = end + 1;
    if (item.empty()) continue;
    const size_t semicolon = item.find(';');
    const std::string_view coding = TrimSpaces(item.substr(0, semicolon));
    const double q =
        semicolon == std::string_view::npos ? 1.0 : QualityOf(item.substr(semicolon + 1));
    ++position;
    if (EqualsIgnoringCase(coding, "gzip")) {
      Consider(gzip, q, true, position);
    } else if (EqualsIgnoringCase(coding, "deflate")) {
      Consider(deflate, q, true, position);
    } else if (coding == "*") {
      Consider(gzip, q, false, position);
      Consider(deflate, q, false, position);
    }
  }
  const bool gzip_ok = gzip.listed && gzip.q > 0;
  const bool deflate_ok = deflate.listed && deflate.q > 0;
  if (!gzip_ok && !deflate_ok) return ResponseEncoding::kNone;
  if (!deflate_ok) return ResponseEncoding::kGzip;
  if (!gzip_ok) return ResponseEncoding::kDeflate;
  if (gzip.q != deflate.q) {
    return gzip.q > deflate.q ? ResponseEncoding::kGzip : ResponseEncoding::kDeflate;
  }
  if (gzip.named != deflate.named) {
    return gzip.named ? ResponseEncoding::kGzip : ResponseEncoding::kDeflate;
  }
  return deflate.position < gzip.position ? ResponseEncoding::kDeflate : ResponseEncoding::kGzip;
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
