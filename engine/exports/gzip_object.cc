#include "engine/exports/gzip_object.h"

#include <isa-l/igzip_lib.h>
#include <openssl/evp.h>

#include <vector>

namespace ddbd {
namespace {

constexpr size_t kBlockBytes = 1 << 20;  // compressed a block at a time: bounded memory

std::string Base64(const unsigned char* bytes, size_t size) {
  std::string out(4 * ((size + 2) / 3) + 1, '\0');
  const int length =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, static_cast<int>(size));
  out.resize(static_cast<size_t>(length));
  return out;
}

std::string Hex(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

Md5Text TextOf(const unsigned char* digest, unsigned int size) {
  unsigned char outer[EVP_MAX_MD_SIZE];
  unsigned int outer_size = 0;
  EVP_Digest(digest, size, outer, &outer_size, EVP_md5(), nullptr);
  return {Base64(digest, size), Hex(outer, outer_size) + "-1"};
}

}  // namespace

Md5Text Md5Of(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_md5(), nullptr);
  return TextOf(digest, size);
}

struct GzipObject::State {
  isal_zstream stream{};
  std::vector<uint8_t> level_buffer = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);
  EVP_MD_CTX* md5 = EVP_MD_CTX_new();
  ~State() { EVP_MD_CTX_free(md5); }
};

GzipObject::GzipObject(std::unique_ptr<ObjectWriter> writer)
    : state_(std::make_unique<State>()), writer_(std::move(writer)) {
  isal_deflate_init(&state_->stream);
  state_->stream.level = 1;
  state_->stream.level_buf = state_->level_buffer.data();
  state_->stream.level_buf_size = static_cast<uint32_t>(state_->level_buffer.size());
  state_->stream.gzip_flag = IGZIP_GZIP;
  EVP_DigestInit_ex(state_->md5, EVP_md5(), nullptr);
  pending_.reserve(kBlockBytes);
}

GzipObject::~GzipObject() = default;

std::optional<ObjectFailure> GzipObject::Add(std::string_view line) {
  pending_.append(line);
  if (pending_.size() < kBlockBytes) return std::nullopt;
  return Deflate(false);
}

std::optional<ObjectFailure> GzipObject::Deflate(bool last) {
  isal_zstream& stream = state_->stream;
  stream.next_in = reinterpret_cast<uint8_t*>(pending_.data());
  stream.avail_in = static_cast<uint32_t>(pending_.size());
  stream.end_of_stream = last ? 1 : 0;
  stream.flush = NO_FLUSH;
  do {
    out_.resize(pending_.size() / 2 + 64 * 1024);
    stream.next_out = reinterpret_cast<uint8_t*>(out_.data());
    stream.avail_out = static_cast<uint32_t>(out_.size());
    if (isal_deflate(&stream) != COMP_OK) return ObjectFailure{"InternalError", "gzip failed"};
    out_.resize(out_.size() - stream.avail_out);
    if (!out_.empty()) {
      EVP_DigestUpdate(state_->md5, out_.data(), out_.size());
      compressed_bytes_ += static_cast<int64_t>(out_.size());
      if (auto failed = writer_->Append(out_)) return failed;
    }
  } while (stream.avail_in > 0 || (last && stream.internal_state.state != ZSTATE_END));
  pending_.clear();
  return std::nullopt;
}

std::optional<ObjectFailure> GzipObject::Finish() {
  if (auto failed = Deflate(true)) return failed;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(state_->md5, digest, &size);
  md5_text_ = TextOf(digest, size);
  return writer_->Commit();
}

}  // namespace ddbd
