#include "engine/exports/import_lines.h"

#include <isa-l/igzip_lib.h>
#include <zstd.h>

#include <memory>

namespace ddbd {
namespace {

constexpr size_t kInflateBlockBytes = 1 << 20;  // decompressed a block at a time

// Gathers decompressed bytes and hands out whole lines; what follows the last newline waits for
// more.
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<bool(std::string_view)>& line) : line_(line) {}
  bool Add(std::string_view bytes) {
    if (stopped_) return false;
    pending_.append(bytes);
    size_t start = 0;
    for (size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1) {
      if (!Emit(std::string_view(pending_).substr(start, end - start))) return false;
    }
    pending_.erase(0, start);
    return true;
  }
  // Hands out the last line, if it has no newline after it.
  void Finish() {
    if (!stopped_ && !pending_.empty()) Emit(pending_);
  }

 private:
  bool Emit(std::string_view text) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) return true;  // blank lines are no items and no errors
    if (!line_(text)) stopped_ = true;
    return !stopped_;
  }
  bool stopped_ = false;
  const std::function<bool(std::string_view)>& line_;
  std::string pending_;
};

bool Gunzip(std::string_view bytes, LineSplitter& lines, std::string& failure) {
  auto state = std::make_unique<inflate_state>();
  isal_inflate_init(state.get());
  state->crc_flag = ISAL_GZIP;
  state->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data()));
  state->avail_in = static_cast<uint32_t>(bytes.size());
  std::string out(kInflateBlockBytes, '\0');
  while (true) {
    state->next_out = reinterpret_cast<uint8_t*>(out.data());
    state->avail_out = static_cast<uint32_t>(out.size());
    const int result = isal_inflate(state.get());
    if (result < 0) {
      failure = "the file is not gzip";
      return false;
    }
    const size_t produced = out.size() - state->avail_out;
    if (!lines.Add(std::string_view(out).substr(0, produced))) return true;
    if (state->block_state == ISAL_BLOCK_FINISH) {
      if (state->avail_in == 0) return true;
      uint8_t* const next = state->next_in;  // the next gzip member
      const uint32_t left = state->avail_in;
      isal_inflate_reset(state.get());
      state->crc_flag = ISAL_GZIP;
      state->next_in = next;
      state->avail_in = left;
      continue;
    }
    if (produced == 0 && state->avail_in == 0) {
      failure = "the gzip file is cut short";
      return false;
    }
  }
}

// Every Zstandard frame in `bytes`, a block at a time.
bool Unzstd(std::string_view bytes, LineSplitter& lines, std::string& failure) {
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  std::string out(kInflateBlockBytes, '\0');
  size_t last = 0;
  while (in.pos < in.size) {
    ZSTD_outBuffer buffer{out.data(), out.size(), 0};
    last = ZSTD_decompressStream(context.get(), &buffer, &in);
    if (ZSTD_isError(last)) {
      failure = std::string("the file is not zstd: ") + ZSTD_getErrorName(last);
      return false;
    }
    if (!lines.Add(std::string_view(out).substr(0, buffer.pos))) return true;
  }
  // Output the last frame may still hold, until it says it is done.
  while (last != 0) {
    ZSTD_outBuffer buffer{out.data(), out.size(), 0};
    last = ZSTD_decompressStream(context.get(), &buffer, &in);
    if (ZSTD_isError(last) || buffer.pos == 0) {
      failure = "the zstd file is cut short";
      return false;
    }
    if (!lines.Add(std::string_view(out).substr(0, buffer.pos))) return true;
  }
  return true;
}

}  // namespace

bool ForEachLine(std::string_view bytes, InputCompressionType compression,
                 const std::function<bool(std::string_view line)>& line, std::string& failure) {
  LineSplitter lines(line);
  switch (compression) {
    case InputCompressionType::kGzip:
      if (!Gunzip(bytes, lines, failure)) return false;
      break;
    case InputCompressionType::kZstd:
      if (!Unzstd(bytes, lines, failure)) return false;
      break;
    case InputCompressionType::kNone:
      for (size_t at = 0; at < bytes.size(); at += kInflateBlockBytes) {
        if (!lines.Add(bytes.substr(at, kInflateBlockBytes))) return true;
      }
      break;
  }
  lines.Finish();
  return true;
}

}  // namespace ddbd
