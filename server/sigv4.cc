#include "server/sigv4.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>

#include "protocol/ascii.h"

namespace ddbd::sigv4 {
namespace {

std::string Hex(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(size * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    hex[2 * i] = kDigits[bytes[i] >> 4];
    hex[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return hex;
}

constexpr size_t kBlockBytes = 64;

// SHA-256 through one algorithm fetched once and a context kept per thread: OpenSSL 3's one-shot
// calls (EVP_Digest, HMAC) fetch the algorithm and build a context each time, which cost ~20,000
// instructions per HMAC, more than the request they would sign.
class Sha256 {
 public:
  Sha256() {
    static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    // One context per thread, freed when the thread ends (dump's and load's threads come and
    // go; the server's live as long as it does).
    thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
        EVP_MD_CTX_new(), EVP_MD_CTX_free);
    context_ = context.get();
    EVP_DigestInit_ex2(context_, md, nullptr);
  }
  Sha256& Update(std::string_view data) {
    EVP_DigestUpdate(context_, data.data(), data.size());
    return *this;
  }
  std::string Final() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(context_, digest, &size);
    return std::string(reinterpret_cast<const char*>(digest), size);
  }

 private:
  EVP_MD_CTX* context_;
};

// HMAC-SHA-256 (RFC 2104) on the digest above.
std::string Hmac(std::string_view key, std::string_view data) {
  std::array<char, kBlockBytes> inner_pad{};
  std::array<char, kBlockBytes> outer_pad{};
  const std::string hashed = key.size() > kBlockBytes ? Sha256().Update(key).Final() : "";
  const std::string_view block = hashed.empty() ? key : std::string_view(hashed);
  for (size_t i = 0; i < kBlockBytes; ++i) {
    const char byte = i < block.size() ? block[i] : '\0';
    inner_pad[i] = static_cast<char>(byte ^ 0x36);
    outer_pad[i] = static_cast<char>(byte ^ 0x5c);
  }
  const std::string inner = Sha256().Update({inner_pad.data(), kBlockBytes}).Update(data).Final();
  return Sha256().Update({outer_pad.data(), kBlockBytes}).Update(inner).Final();
}

bool Unreserved(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
}

std::string CanonicalQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> parameters;
  size_t start = 0;
  while (start < query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    if (!pair.empty()) {
      const size_t equals = pair.find('=');
      const std::string_view name = pair.substr(0, equals);
      const std::string_view value =
          equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
      parameters.emplace_back(UriEncode(UriDecode(name), false),
                              UriEncode(UriDecode(value), false));
    }
    start = end + 1;
  }
  std::sort(parameters.begin(), parameters.end());
  std::string out;
  for (const auto& [name, value] : parameters) {
    if (!out.empty()) out.push_back('&');
    out += name + "=" + value;
  }
  return out;
}

// Trims the value and collapses each run of spaces inside it to one.
void AppendHeaderValue(std::string& out, std::string_view value) {
  bool space = false;
  bool started = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      space = started;
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    started = true;
    out.push_back(c);
  }
}

void AppendLower(std::string& out, std::string_view text) {
  for (const char c : text) out.push_back(AsciiLower(c));
}

bool NeedsEncoding(std::string_view path) {
  for (const char c : path) {
    if (!Unreserved(static_cast<unsigned char>(c)) && c != '/') return true;
  }
  return false;
}

}  // namespace

std::string UriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (Unreserved(c) || (keep_slash && c == '/')) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 15]);
    }
  }
  return out;
}

std::string UriDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string Sha256Hex(std::string_view data) {
  const std::string digest = Sha256().Update(data).Final();
  return Hex(reinterpret_cast<const unsigned char*>(digest.data()), digest.size());
}

std::string CanonicalRequest(const CanonicalInput& input) {
  std::string out;
  out.reserve(512);
  out.append(input.method).push_back('\n');
  // The path as sent is encoded once more, as for every service but S3 (DynamoDB's is "/").
  if (input.path.empty()) {
    out.push_back('/');
  } else if (!NeedsEncoding(input.path)) {
    out.append(input.path);
  } else {
    out += UriEncode(input.path, true);
  }
  out.push_back('\n');
  if (!input.query.empty()) out += CanonicalQuery(input.query);
  out.push_back('\n');
  size_t start = 0;
  const std::string_view list = input.signed_headers;
  while (start <= list.size()) {
    size_t end = list.find(';', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view name = list.substr(start, end - start);
    AppendLower(out, name);
    out.push_back(':');
    bool first = true;
    for (const auto& [header, value] : input.headers) {
      if (!EqualsIgnoringCase(header, name)) continue;
      if (!first) out.push_back(',');
      first = false;
      AppendHeaderValue(out, value);
    }
    out.push_back('\n');
    start = end + 1;
  }
  out.push_back('\n');
  AppendLower(out, input.signed_headers);
  out.push_back('\n');
  out += input.payload_hash;
  return out;
}

std::string SigningKey(std::string_view secret, std::string_view date, std::string_view region,
                       std::string_view service) {
  std::string key = Hmac("AWS4" + std::string(secret), date);
  key = Hmac(key, region);
  key = Hmac(key, service);
  return Hmac(key, "aws4_request");
}

std::string SignWithKey(std::string_view signing_key, std::string_view date,
                        std::string_view region, std::string_view service,
                        std::string_view amz_date, std::string_view canonical_request) {
  std::string string_to_sign = "AWS4-HMAC-SHA256\n";
  string_to_sign.append(amz_date).append("\n").append(date).append("/").append(region);
  string_to_sign.append("/").append(service).append("/aws4_request\n");
  string_to_sign += Sha256Hex(canonical_request);
  const std::string signature = Hmac(signing_key, string_to_sign);
  return Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

std::string Signature(std::string_view secret, std::string_view date, std::string_view region,
                      std::string_view service, std::string_view amz_date,
                      std::string_view canonical_request) {
  return SignWithKey(SigningKey(secret, date, region, service), date, region, service, amz_date,
                     canonical_request);
}

}  // namespace ddbd::sigv4
