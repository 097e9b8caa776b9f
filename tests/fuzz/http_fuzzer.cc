// Fuzzes the server layer's handling of what a client sends before the dispatcher sees it: the
// Authorization header and presigned query (checked for form, and verified against a key), the
// X-Amz-Date, the canonical request built from arbitrary headers, a Content-Encoding'd body
// (gzip, deflate or anything) and Accept-Encoding. The input is split at 0x1E into: header,
// date, query, content encoding, body, accept encoding. Also what metrics and the access log
// read of the target, the request and the answer, and the seed files' table and item parsers.
// Any crash, sanitizer report or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/request_summary.h"
#include "protocol/seed.h"
#include "protocol/table_dump.h"
#include "server/access_log.h"
#include "server/authenticator.h"
#include "server/content_encoding.h"
#include "server/metrics.h"
#include "server/sigv4.h"

namespace {

class Headers final : public ddbd::HeaderSource {
 public:
  std::vector<std::pair<std::string_view, std::string_view>> values;
  void Values(std::string_view name, std::vector<std::string_view>& out) const override {
    for (const auto& [header, value] : values) {
      if (header.size() == name.size()) out.push_back(value);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (parts.size() < 5) {
    const size_t end = input.find('\x1e', start);
    if (end == std::string_view::npos) break;
    parts.push_back(input.substr(start, end - start));
    start = end + 1;
  }
  parts.push_back(input.substr(std::min(start, input.size())));
  parts.resize(6);

  Headers headers;
  headers.values = {{"host", "127.0.0.1:8000"}, {"x-amz-date", parts[1]}, {"x-custom", parts[0]}};
  ddbd::HttpRequest request;
  request.method = "POST";
  request.path = "/";
  request.authorization = parts[0];
  request.amz_date = parts[1];
  request.query = parts[2];
  request.headers = &headers;

  std::string decoded;
  const ddbd::BodyDecoding decoding = ddbd::DecodeBody(parts[3], parts[4], 1 << 20, decoded);
  request.body = decoding == ddbd::BodyDecoding::kDecoded ? std::string_view(decoded) : parts[4];
  (void)ddbd::ChooseResponseEncoding(parts[5]);

  constexpr int64_t kNowMs = 1'764'000'000'000;
  static const ddbd::Authenticator lenient(std::map<std::string, std::string>{});
  static const ddbd::Authenticator strict(
      std::map<std::string, std::string>{{"AKID", "secret"}, {"x", "y"}});
  (void)lenient.Check(request, kNowMs);
  (void)strict.Check(request, kNowMs);

  // What metrics and the access log read of a request and its answer: the target, an error
  // body's __type, the request's tables and the answer's capacity (an iterative parse of bodies
  // the client chose), and the log line written from them.
  static ddbd::Metrics metrics;
  metrics.RecordRequest(parts[0], parts[1].empty() ? 200 : 400, parts[4], 1000);
  const ddbd::RequestSummary summary = ddbd::Summarize(request.body, parts[3]);
  ddbd::AccessRecord record;
  record.operation = ddbd::Metrics::OperationOf(parts[0]);
  record.table = summary.table;
  record.error = ddbd::Metrics::ErrorTypeOf(parts[4]);
  record.consumed_capacity = summary.consumed_capacity;
  (void)ddbd::AccessLog::Line(record);
  if (parts[5].size() == 7) (void)metrics.Render({});
  // Seed and dump files (--seed, ddbd load): a table file, an item line and its key.
  (void)ddbd::ReadSeedTable("fuzz.table.json", parts[4]);
  if (auto item = ddbd::SeedItemJson(parts[4]); item.ok() && item.value()) {
    (void)ddbd::ItemKeyText(*item.value(), {"pk", "sk"});
  }

  ddbd::sigv4::CanonicalInput canonical;
  canonical.method = "POST";
  canonical.path = parts[2];
  canonical.query = parts[2];
  canonical.headers = headers.values;
  canonical.signed_headers = parts[5];
  canonical.payload_hash = parts[1];
  (void)ddbd::sigv4::CanonicalRequest(canonical);
  if (decoding == ddbd::BodyDecoding::kDecoded && decoded.size() < 65536) {
    std::string again;
    (void)ddbd::DecodeBody("gzip", ddbd::Compress(decoded, ddbd::ResponseEncoding::kGzip), 1 << 20,
                           again);
  }
  return 0;
}
