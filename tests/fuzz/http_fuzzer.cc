// Fuzzes the server layer's handling of what a client sends before the dispatcher sees it: the
// Authorization header and presigned query (checked for form, and verified against a key), the
// X-Amz-Date, the canonical request built from arbitrary headers, a Content-Encoding'd body
// (gzip, deflate or anything) and Accept-Encoding; a request signed over the body as sent must
// verify, and one whose X-Amz-Content-Sha256 claims another body must not. The input is split at
// 0x1E into: header, date, query, content encoding, body, accept encoding. Also what metrics and
// the access log read of the target, the request and the answer, the seed files' table and item
// parsers, and a stream trigger's function answer and filter patterns. Any crash, sanitizer
// report or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/item_codec.h"
#include "protocol/event_filter.h"
#include "protocol/json_parse.h"
#include "protocol/lambda_event.h"
#include "protocol/request_summary.h"
#include "server/access_log.h"
#include "server/authenticator.h"
#include "server/content_encoding.h"
#include "server/metrics.h"
#include "server/sigv4.h"
#include "server/tools/seed.h"
#include "server/tools/table_dump.h"

namespace {

class Headers final : public ddbd::HeaderSource {
 public:
  std::vector<std::pair<std::string_view, std::string_view>> values;
  // By length only, so arbitrary names reach every header; `exact` matches names too.
  bool exact = false;
  void Values(std::string_view name, std::vector<std::string_view>& out) const override {
    for (const auto& [header, value] : values) {
      if (header.size() == name.size() && (!exact || header == name)) out.push_back(value);
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
  if (decoding == ddbd::BodyDecoding::kDecoded) {
    request.body = decoded;
    request.body_as_sent = parts[4];
  } else {
    request.body = parts[4];
  }
  (void)ddbd::ChooseResponseEncoding(parts[5]);

  constexpr int64_t kNowMs = 1'764'000'000'000;
  static const ddbd::Authenticator lenient(std::map<std::string, std::string>{});
  static const ddbd::Authenticator strict(
      std::map<std::string, std::string>{{"AKID", "secret"}, {"x", "y"}});
  (void)lenient.Check(request, kNowMs);
  (void)strict.Check(request, kNowMs);

  // A request signed over the body as sent (compressed or not) verifies; with a declared
  // X-Amz-Content-Sha256 (parts[5]: a tampered body's claim, UNSIGNED-PAYLOAD, anything) it
  // verifies only when the claim is the body's own hash.
  {
    const std::string amz_date = "20251124T160000Z";
    const std::string payload_hash = ddbd::sigv4::Sha256Hex(parts[4]);
    Headers signed_headers;
    signed_headers.exact = true;
    signed_headers.values = {{"host", "127.0.0.1:8000"}, {"x-amz-date", amz_date}};
    if (!parts[5].empty()) signed_headers.values.emplace_back("x-amz-content-sha256", parts[5]);
    ddbd::sigv4::CanonicalInput input;
    input.method = "POST";
    input.path = "/";
    input.headers = {{"host", "127.0.0.1:8000"}, {"x-amz-date", amz_date}};
    input.signed_headers = "host;x-amz-date";
    input.payload_hash = payload_hash;
    const std::string signature =
        ddbd::sigv4::Signature("secret", "20251124", "us-east-1", "dynamodb", amz_date,
                               ddbd::sigv4::CanonicalRequest(input));
    const std::string authorization =
        "AWS4-HMAC-SHA256 Credential=AKID/20251124/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=" +
        signature;
    ddbd::HttpRequest signed_request = request;
    signed_request.query = {};
    signed_request.authorization = authorization;
    signed_request.amz_date = amz_date;
    signed_request.headers = &signed_headers;
    const bool verified = strict.Check(signed_request, kNowMs).ok();
    const bool should = parts[5].empty() || parts[5] == payload_hash;
    if (verified != should) __builtin_trap();
  }

  // What metrics and the access log read of a request and its answer: the target, an error
  // body's __type, the request's tables and the answer's capacity (an iterative parse of bodies
  // the client chose), and the log line written from them.
  static ddbd::Metrics metrics;
  metrics.RecordRequest(parts[0], parts[1].empty() ? 200 : 400, parts[4], 1000);
  ddbd::AccessRecord record;
  record.operation = ddbd::Metrics::OperationOf(parts[0]);
  const std::string tables = ddbd::RequestTables(request.body);
  record.table = tables;
  record.error = ddbd::Metrics::ErrorTypeOf(parts[4]);
  record.consumed_capacity = ddbd::ConsumedCapacityUnits(parts[3]);
  (void)ddbd::AccessLog::Line(record);
  if (parts[5].size() == 7) (void)metrics.Render({});
  // Seed and dump files (--seed, ddbd load): a table file, an item line and its key.
  (void)ddbd::ReadSeedTable("fuzz.table.json", parts[4]);
  if (auto item = ddbd::SeedItemJson(parts[4]); item.ok() && item.value()) {
    (void)ddbd::ItemKeyText(*item.value(), {"pk", "sk"});
  }

  // A stream trigger's function answer (with ReportBatchItemFailures) and a filter pattern
  // (--stream-trigger's filter=), matched against the record's JSON and the body as a record.
  {
    static const ddbd::StreamTriggerBatch batch = [] {
      ddbd::StreamTriggerBatch made;
      made.stream_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/x";
      made.records.resize(2);
      made.records[0].sequence = 100;
      made.records[1].sequence = 101;
      return made;
    }();
    (void)ddbd::ReadFunctionAnswer(parts[1].empty() ? 200 : 500, parts[5].size() == 1,
                                   std::string(parts[4]), true, batch);
    std::string problem;
    if (auto filter = ddbd::EventFilter::Compile(parts[3], problem)) {
      rapidjson::Document document;
      std::string text(parts[4]);
      if (ddbd::json::ParseInPlace(text, document)) (void)filter->Matches(document);
      static const std::string record_json = [] {
        ddbd::StreamRecord record;
        record.sequence = 7;
        record.keys = ddbd::EncodeItem({{"pk", ddbd::AttributeValue::String("order#1")}});
        record.new_image = record.keys;
        return ddbd::StreamTriggerRecordJson(record, batch);
      }();
      rapidjson::Document event;
      event.Parse(record_json.c_str());
      (void)filter->Matches(event);
    }
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
