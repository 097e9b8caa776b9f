#include "server/s3_buckets.h"

#include <string_view>
#include <utility>
#include <vector>

#include "protocol/utf8.h"
#include "server/sigv4.h"

namespace ddbd {
namespace {

constexpr int kS3TimeoutMs = 60'000;

// The text of the first <tag>...</tag> after `from` (S3's answers are flat XML: a scan for the
// few elements read here is enough; keys come back with XML's five escapes and &#N; undone).
// `decode` false: the element's raw XML, for one that holds elements (whose text is decoded once,
// when they are read).
std::optional<std::string> Element(std::string_view xml, std::string_view tag, size_t& from,
                                   bool decode = true) {
  const std::string open = "<" + std::string(tag) + ">";
  const std::string close = "</" + std::string(tag) + ">";
  const size_t start = xml.find(open, from);
  if (start == std::string_view::npos) return std::nullopt;
  const size_t end = xml.find(close, start + open.size());
  if (end == std::string_view::npos) return std::nullopt;
  from = end + close.size();
  const std::string_view raw = xml.substr(start + open.size(), end - start - open.size());
  if (!decode) return std::string(raw);
  std::string text;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      text += raw[i];
      continue;
    }
    const size_t semicolon = raw.find(';', i);
    if (semicolon == std::string_view::npos) {
      text += raw[i];
      continue;
    }
    const std::string_view entity = raw.substr(i + 1, semicolon - i - 1);
    if (entity == "amp")
      text += '&';
    else if (entity == "lt")
      text += '<';
    else if (entity == "gt")
      text += '>';
    else if (entity == "quot")
      text += '"';
    else if (entity == "apos")
      text += '\'';
    else if (entity.starts_with('#')) {
      const bool hex = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X');
      const unsigned long code =
          std::strtoul(std::string(entity.substr(hex ? 2 : 1)).c_str(), nullptr, hex ? 16 : 10);
      if (code <= 0x10FFFF) AppendUtf8(static_cast<uint32_t>(code), text);
    } else {
      text += raw.substr(i, semicolon - i + 1);
    }
    i = semicolon;
  }
  return text;
}

class S3Buckets final : public ObjectStore {
 public:
  S3Buckets(Endpoint endpoint, AwsCredentials credentials, std::string region)
      : endpoint_(std::move(endpoint)),
        credentials_(std::move(credentials)),
        region_(std::move(region)) {}

  std::unique_ptr<ObjectWriter> Create(const std::string& bucket, const std::string& key,
                                       ObjectFailure&) override {
    return std::make_unique<Writer>(*this, bucket, key);
  }

  std::optional<std::string> Read(const std::string& bucket, const std::string& key,
                                  ObjectFailure& failure) const override {
    HttpAnswer answer;
    if (!Send("GET", bucket, key, "", "", answer, failure)) return std::nullopt;
    return std::move(answer.body);
  }

  std::optional<std::vector<ObjectInfo>> List(const std::string& bucket, const std::string& prefix,
                                              ObjectFailure& failure) const override {
    std::vector<ObjectInfo> objects;
    std::string token;
    while (true) {
      std::string query = "list-type=2&prefix=" + sigv4::UriEncode(prefix, false);
      if (!token.empty()) query += "&continuation-token=" + sigv4::UriEncode(token, false);
      HttpAnswer answer;
      if (!Send("GET", bucket, "", query, "", answer, failure)) return std::nullopt;
      size_t at = 0;
      while (auto contents = Element(answer.body, "Contents", at, false)) {
        size_t inner = 0;
        auto key = Element(*contents, "Key", inner);
        inner = 0;
        auto size = Element(*contents, "Size", inner);
        if (key) objects.push_back({*key, size ? std::strtoll(size->c_str(), nullptr, 10) : 0});
      }
      at = 0;
      const auto truncated = Element(answer.body, "IsTruncated", at);
      at = 0;
      const auto next = Element(answer.body, "NextContinuationToken", at);
      if (truncated != "true" || !next || next->empty()) break;
      token = *next;
    }
    return objects;  // S3 lists in key order
  }

  bool Put(const std::string& bucket, const std::string& key, std::string_view body,
           ObjectFailure& failure) const {
    HttpAnswer answer;
    return Send("PUT", bucket, key, "", body, answer, failure);
  }

 private:
  // An object sent whole at Commit: S3 shows it only once the PUT is done, as the directory
  // store publishes one whole.
  class Writer final : public ObjectWriter {
   public:
    Writer(const S3Buckets& store, std::string bucket, std::string key)
        : store_(store), bucket_(std::move(bucket)), key_(std::move(key)) {}
    std::optional<ObjectFailure> Append(std::string_view bytes) override {
      bytes_.append(bytes);
      return std::nullopt;
    }
    std::optional<ObjectFailure> Commit() override {
      ObjectFailure failure;
      if (!store_.Put(bucket_, key_, bytes_, failure)) return failure;
      return std::nullopt;
    }

   private:
    const S3Buckets& store_;
    const std::string bucket_;
    const std::string key_;
    std::string bytes_;
  };

  // One signed request; false with the failure as an export reports it.
  bool Send(std::string_view method, const std::string& bucket, const std::string& key,
            const std::string& query, std::string_view body, HttpAnswer& answer,
            ObjectFailure& failure) const {
    const std::string amz_date = AmzDateNow();
    const std::string date = amz_date.substr(0, 8);
    const std::string host = endpoint_.HostHeader();
    const std::string payload_hash = sigv4::Sha256Hex(body);
    // The canonical path is the path encoded once (S3's rule): CanonicalRequest encodes what it
    // is given once, so it is given the key as it is.
    const std::string plain_path = "/" + bucket + (key.empty() ? "" : "/" + key);
    const std::string sent_path = "/" + sigv4::UriEncode(bucket, false) +
                                  (key.empty() ? "" : "/" + sigv4::UriEncode(key, true)) +
                                  (query.empty() ? "" : "?" + query);
    std::vector<std::pair<std::string_view, std::string_view>> signed_headers = {
        {"host", host}, {"x-amz-content-sha256", payload_hash}, {"x-amz-date", amz_date}};
    std::string names = "host;x-amz-content-sha256;x-amz-date";
    if (!credentials_.session_token.empty()) {
      signed_headers.emplace_back("x-amz-security-token", credentials_.session_token);
      names += ";x-amz-security-token";
    }
    sigv4::CanonicalInput input;
    input.method = method;
    input.path = plain_path;
    input.query = query;
    input.headers = signed_headers;
    input.signed_headers = names;
    input.payload_hash = payload_hash;
    const std::string signature = sigv4::Signature(credentials_.secret_access_key, date, region_,
                                                   "s3", amz_date, sigv4::CanonicalRequest(input));
    std::vector<std::pair<std::string, std::string>> headers = {
        {"X-Amz-Date", amz_date},
        {"X-Amz-Content-Sha256", payload_hash},
        {"Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials_.access_key_id + "/" + date +
                              "/" + region_ + "/s3/aws4_request, SignedHeaders=" + names +
                              ", Signature=" + signature}};
    if (!credentials_.session_token.empty()) {
      headers.emplace_back("X-Amz-Security-Token", credentials_.session_token);
    }
    HttpClient client(endpoint_, true, kS3TimeoutMs);
    std::string problem;
    if (!client.Send(method, sent_path, headers, body, answer, problem)) {
      failure = {"S3Unreachable", "--s3-endpoint " + host + " could not be reached: " + problem};
      return false;
    }
    if (answer.status >= 200 && answer.status < 300) return true;
    size_t at = 0;
    const std::string code = Element(answer.body, "Code", at).value_or("");
    at = 0;
    const std::string message = Element(answer.body, "Message", at).value_or("");
    // DynamoDB's FailureMessage quotes S3's the way the AWS SDK for Java words it.
    const std::string quoted =
        message + " (Service: Amazon S3; Status Code: " + std::to_string(answer.status) +
        "; Error Code: " + (code.empty() ? "none" : code) + ")";
    if (code == "NoSuchBucket" || (code.empty() && answer.status == 404 && key.empty())) {
      failure = {"S3NoSuchBucket", quoted};
    } else if (code == "AccessDenied" || code == "SignatureDoesNotMatch" ||
               code == "InvalidAccessKeyId" || answer.status == 403) {
      failure = {"S3AccessDenied", quoted};
    } else {
      failure = {"S3" + (code.empty() ? std::to_string(answer.status) : code), quoted};
    }
    return false;
  }

  const Endpoint endpoint_;
  const AwsCredentials credentials_;
  const std::string region_;
};

}  // namespace

std::shared_ptr<ObjectStore> NewS3Buckets(Endpoint endpoint, AwsCredentials credentials,
                                          std::string region) {
  return std::make_shared<S3Buckets>(std::move(endpoint), std::move(credentials),
                                     std::move(region));
}

}  // namespace ddbd
