#include "server/authenticator.h"

#include <openssl/crypto.h>

#include <ctime>
#include <optional>
#include <vector>

#include "protocol/ascii.h"
#include "protocol/authorization.h"
#include "server/sigv4.h"

namespace ddbd {
namespace {

constexpr int64_t kPastWindowMs = 5 * 60 * 1000;     // "Signature expired ... - 5 min."
constexpr int64_t kFutureWindowMs = 15 * 60 * 1000;  // "Signature not yet current ... + 15 min."

constexpr std::string_view kQueryPartsMissing =
    "AWS query-string parameters must include 'X-Amz-Algorithm', 'X-Amz-Credential', "
    "'X-Amz-Signature', 'X-Amz-SignedHeaders', 'X-Amz-Date'. Re-examine the query-string "
    "parameters.";

constexpr std::string_view kSignatureMismatch =
    "The request signature we calculated does not match the signature you provided. Check your "
    "AWS Secret Access Key and signing method. Consult the service documentation for details.";

bool IsAws4Header(std::string_view header) { return TrimSpaces(header).starts_with("AWS4-"); }

bool IsPresigned(const HttpRequest& request) {
  return request.query.find("X-Amz-Algorithm=") != std::string_view::npos;
}

// Whether `header` names `part`, looked for from `from` first: SDKs write the parts in the order
// they are checked, so the three searches together read the header about once.
bool Names(std::string_view header, std::string_view part, size_t& from) {
  size_t at = header.find(part, from);
  if (at == std::string_view::npos && from > 0) at = header.find(part);
  if (at == std::string_view::npos) return false;
  from = at + part.size();
  return true;
}

// yyyymmddThhmmssZ -> epoch ms; nullopt when it is not that.
std::optional<int64_t> ParseAmzDate(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  std::tm tm{};
  auto number = [&](size_t at, size_t digits) {
    int value = 0;
    for (size_t i = at; i < at + digits; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  tm.tm_year = number(0, 4) - 1900;
  tm.tm_mon = number(4, 2) - 1;
  tm.tm_mday = number(6, 2);
  tm.tm_hour = number(9, 2);
  tm.tm_min = number(11, 2);
  tm.tm_sec = number(13, 2);
  if (tm.tm_year < 0 || tm.tm_mon < 0 || tm.tm_mday < 1 || tm.tm_hour < 0 || tm.tm_min < 0 ||
      tm.tm_sec < 0) {
    return std::nullopt;
  }
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

std::string FormatAmzDate(int64_t epoch_ms) {
  const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[20];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

// The signing key of `secret` for the request's scope. It changes once a day: each thread keeps
// the last one it derived (four HMACs saved on every request).
const std::string& SigningKeyFor(const std::string& secret, const Authorization& authorization) {
  struct Cached {
    std::string secret, date, region, service, key;
  };
  thread_local Cached cached;
  if (cached.key.empty() || cached.secret != secret || cached.date != authorization.date ||
      cached.region != authorization.region || cached.service != authorization.service) {
    cached = {
        secret, std::string(authorization.date), std::string(authorization.region),
        std::string(authorization.service),
        sigv4::SigningKey(secret, authorization.date, authorization.region, authorization.service)};
  }
  return cached.key;
}

// The Date header, read only when X-Amz-Date is absent (SDKs send X-Amz-Date).
std::string_view DateHeader(const HttpRequest& request) {
  std::vector<std::string_view> values;
  if (request.headers != nullptr) request.headers->Values("date", values);
  return values.empty() ? std::string_view() : values[0];
}

Error Invalid(std::string message) { return {ErrorCode::kInvalidSignature, std::move(message)}; }

}  // namespace

Authenticator::Authenticator(std::map<std::string, std::string> keys) : keys_(std::move(keys)) {}

bool Authenticator::CarriesSignature(const HttpRequest& request) {
  return IsAws4Header(request.authorization) || IsPresigned(request);
}

Status Authenticator::Check(const HttpRequest& request, int64_t now_ms) const {
  const std::string_view header = request.authorization;
  if (!IsAws4Header(header)) return CheckPresigned(request, now_ms);
  if (IsPresigned(request)) {
    return Invalid(
        "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP "
        "header.");
  }
  // DynamoDB names every missing part at once, then quotes the header.
  std::string missing;
  size_t from = 0;
  const bool credential = Names(header, "Credential=", from);
  const bool signed_headers = Names(header, "SignedHeaders=", from);
  const bool signature = Names(header, "Signature=", from);
  if (!credential) missing += "Authorization header requires 'Credential' parameter. ";
  if (!signature) missing += "Authorization header requires 'Signature' parameter. ";
  if (!signed_headers) missing += "Authorization header requires 'SignedHeaders' parameter. ";
  if (request.amz_date.empty() && DateHeader(request).empty()) {
    missing +=
        "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ";
  }
  if (!missing.empty()) {
    return Error(ErrorCode::kIncompleteSignature, missing + "Authorization=" + std::string(header));
  }
  if (keys_.empty()) return Ok{};
  return Verify(request, now_ms);
}

Status Authenticator::Verify(const HttpRequest& request, int64_t now_ms) const {
  const std::optional<Authorization> parsed = ParseAuthorization(request.authorization);
  if (!parsed) {
    return Error(ErrorCode::kIncompleteSignature,
                 "Authorization header requires 'Credential' parameter. Authorization=" +
                     std::string(request.authorization));
  }
  const std::string_view amz_date =
      request.amz_date.empty() ? DateHeader(request) : request.amz_date;
  return VerifySignature(request, *parsed, amz_date, request.query, now_ms);
}

Status Authenticator::VerifySignature(const HttpRequest& request, const Authorization& parsed,
                                      std::string_view amz_date, std::string_view query,
                                      int64_t now_ms) const {
  const std::optional<int64_t> signed_ms = ParseAmzDate(amz_date);
  if (!signed_ms) {
    return Invalid("Date must be in ISO-8601 'basic format'. Got '" + std::string(amz_date) +
                   "'. See http://en.wikipedia.org/wiki/ISO_8601");
  }
  if (*signed_ms < now_ms - kPastWindowMs) {
    return Invalid("Signature expired: " + std::string(amz_date) + " is now earlier than " +
                   FormatAmzDate(now_ms - kPastWindowMs) + " (" + FormatAmzDate(now_ms) +
                   " - 5 min.)");
  }
  if (*signed_ms > now_ms + kFutureWindowMs) {
    return Invalid("Signature not yet current: " + std::string(amz_date) + " is still later than " +
                   FormatAmzDate(now_ms + kFutureWindowMs) + " (" + FormatAmzDate(now_ms) +
                   " + 15 min.)");
  }
  // The date before the key, as AWS checks them (behaviours-to-match A3).
  const auto key = keys_.find(std::string(parsed.access_key_id));
  if (key == keys_.end()) {
    return Error(ErrorCode::kUnrecognizedClient,
                 "The security token included in the request is invalid.");
  }
  sigv4::CanonicalInput input;
  input.method = request.method;
  input.path = request.path;
  input.query = query;
  input.signed_headers = parsed.signed_headers;
  std::vector<std::string_view> values;
  size_t start = 0;
  while (start <= input.signed_headers.size() && request.headers != nullptr) {
    size_t end = input.signed_headers.find(';', start);
    if (end == std::string_view::npos) end = input.signed_headers.size();
    const std::string_view name = input.signed_headers.substr(start, end - start);
    values.clear();
    request.headers->Values(name, values);
    for (std::string_view value : values) input.headers.emplace_back(name, value);
    start = end + 1;
  }
  // The payload's hash is always that of the body as it arrived (compressed, when it was sent
  // so), never a client's claim: a declared X-Amz-Content-Sha256 (UNSIGNED-PAYLOAD included)
  // that differs fails as a wrong signature does, so a captured signature cannot carry another
  // body (issue 34).
  const std::string body_hash =
      sigv4::Sha256Hex(request.body_as_sent.empty() ? request.body : request.body_as_sent);
  values.clear();
  if (request.headers != nullptr) request.headers->Values("x-amz-content-sha256", values);
  if (!values.empty() && values[0] != body_hash) return Invalid(std::string(kSignatureMismatch));
  input.payload_hash = body_hash;
  const std::string expected =
      sigv4::SignWithKey(SigningKeyFor(key->second, parsed), parsed.date, parsed.region,
                         parsed.service, amz_date, sigv4::CanonicalRequest(input));
  if (expected.size() != parsed.signature.size() ||
      CRYPTO_memcmp(expected.data(), parsed.signature.data(), expected.size()) != 0) {
    return Invalid(std::string(kSignatureMismatch));
  }
  return Ok{};
}

// A presigned request: its signature in the query (X-Amz-Algorithm, X-Amz-Credential,
// X-Amz-Date, X-Amz-SignedHeaders, X-Amz-Signature), verified over the query without
// X-Amz-Signature.
Status Authenticator::CheckPresigned(const HttpRequest& request, int64_t now_ms) const {
  std::map<std::string, std::string> parameters;
  std::string unsigned_query;  // the query as sent, less X-Amz-Signature
  size_t start = 0;
  const std::string_view query = request.query;
  while (start < query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    const size_t equals = pair.find('=');
    const std::string name(pair.substr(0, equals));
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1);
    parameters[name] = sigv4::UriDecode(value);
    if (name != "X-Amz-Signature") {
      if (!unsigned_query.empty()) unsigned_query.push_back('&');
      unsigned_query.append(pair);
    }
    start = end + 1;
  }
  for (const char* required : {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Signature",
                               "X-Amz-SignedHeaders", "X-Amz-Date"}) {
    if (parameters.count(required) == 0) {
      return Error(ErrorCode::kIncompleteSignature, std::string(kQueryPartsMissing));
    }
  }
  if (keys_.empty()) return Ok{};
  // The same parts as a header would carry them, read by the same parser.
  const std::string header = parameters["X-Amz-Algorithm"] +
                             " Credential=" + parameters["X-Amz-Credential"] +
                             ", SignedHeaders=" + parameters["X-Amz-SignedHeaders"] +
                             ", Signature=" + parameters["X-Amz-Signature"];
  const std::optional<Authorization> parsed = ParseAuthorization(header);
  if (!parsed) {
    return Error(ErrorCode::kIncompleteSignature, std::string(kQueryPartsMissing));
  }
  return VerifySignature(request, *parsed, parameters["X-Amz-Date"], unsigned_query, now_ms);
}

}  // namespace ddbd
