#include "server/kinesis_streams.h"

#include <openssl/evp.h>

#include <chrono>
#include <ctime>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/kinesis_record.h"
#include "server/sigv4.h"

namespace ddbd {
namespace {

constexpr int kTimeoutMs = 10'000;

std::string AmzDate() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[20];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

class KinesisEndpoint final : public KinesisStreams {
 public:
  KinesisEndpoint(Endpoint endpoint, AwsCredentials credentials, std::string region)
      : endpoint_(std::move(endpoint)),
        credentials_(std::move(credentials)),
        region_(std::move(region)) {}

  KinesisPutOutcome PutRecords(const KinesisBatch& batch) override {
    using Failure = KinesisPutOutcome::Failure;
    KinesisPutOutcome outcome;
    const std::string_view name = KinesisStreamName(batch.stream_arn);
    if (name.empty()) {
      outcome.failure = Failure::kStreamNotFound;
      outcome.message = "ResourceNotFoundException: " + batch.stream_arn + " names no stream";
      return outcome;
    }
    std::vector<KinesisEntry> entries;
    entries.reserve(batch.records.size());
    for (const StreamRecord& record : batch.records) {
      entries.push_back({KinesisRecordJson(record, batch), KinesisPartitionKey(record.keys)});
    }
    HttpAnswer answer;
    std::string problem;
    if (!Send("Kinesis_20131202.PutRecords", PutRecordsBody(name, entries), answer, problem)) {
      outcome.failure = Failure::kUnreachable;
      outcome.message =
          "--kinesis-endpoint " + endpoint_.HostHeader() + " could not be reached: " + problem;
      return outcome;
    }
    if (answer.status != 200) {
      auto [type, message] = ReadKinesisError(std::move(answer.body));
      outcome.failure =
          type == "ResourceNotFoundException" ? Failure::kStreamNotFound : Failure::kRefused;
      outcome.message =
          (type.empty() ? "HTTP " + std::to_string(answer.status) : type) + ": " + message;
      return outcome;
    }
    const PutRecordsAnswer put = ReadPutRecordsAnswer(std::move(answer.body));
    if (!put.readable) {
      outcome.failure = Failure::kRefused;
      outcome.message = "PutRecords answered what is not PutRecords' answer";
      return outcome;
    }
    outcome.delivered = put.taken_in_order;
    if (put.taken_in_order < entries.size()) {
      // A record refused (throttled, most often): it and those after it go again, in order.
      outcome.failure = Failure::kRefused;
      outcome.message = put.error_code + ": " + put.error_message;
    }
    return outcome;
  }

 private:
  bool Send(std::string_view target, std::string_view body, HttpAnswer& answer,
            std::string& problem) const {
    const std::string amz_date = AmzDate();
    const std::string date = amz_date.substr(0, 8);
    const std::string host = endpoint_.HostHeader();
    const std::string payload_hash = sigv4::Sha256Hex(body);
    std::vector<std::pair<std::string_view, std::string_view>> signed_headers = {
        {"host", host}, {"x-amz-date", amz_date}, {"x-amz-target", target}};
    std::string names = "host;x-amz-date;x-amz-target";
    if (!credentials_.session_token.empty()) {
      signed_headers.emplace_back("x-amz-security-token", credentials_.session_token);
      names += ";x-amz-security-token";
    }
    sigv4::CanonicalInput input;
    input.method = "POST";
    input.path = "/";
    input.headers = signed_headers;
    input.signed_headers = names;
    input.payload_hash = payload_hash;
    const std::string signature =
        sigv4::Signature(credentials_.secret_access_key, date, region_, "kinesis", amz_date,
                         sigv4::CanonicalRequest(input));
    std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Type", "application/x-amz-json-1.1"},
        {"X-Amz-Target", std::string(target)},
        {"X-Amz-Date", amz_date},
        {"Authorization", "AWS4-HMAC-SHA256 Credential=" + credentials_.access_key_id + "/" + date +
                              "/" + region_ + "/kinesis/aws4_request, SignedHeaders=" + names +
                              ", Signature=" + signature}};
    if (!credentials_.session_token.empty()) {
      headers.emplace_back("X-Amz-Security-Token", credentials_.session_token);
    }
    HttpClient client(endpoint_, true, kTimeoutMs);
    return client.Send("POST", "/", headers, body, answer, problem);
  }

  const Endpoint endpoint_;
  const AwsCredentials credentials_;
  const std::string region_;
};

}  // namespace

std::string KinesisPartitionKey(std::string_view keys) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(keys.data(), keys.size(), digest, &length, EVP_md5(), nullptr);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text;
  for (unsigned int i = 0; i < length; ++i) {
    text += kHex[digest[i] >> 4];
    text += kHex[digest[i] & 15];
  }
  return text;
}

std::shared_ptr<KinesisStreams> NewKinesisStreams(Endpoint endpoint, AwsCredentials credentials,
                                                  std::string region) {
  return std::make_shared<KinesisEndpoint>(std::move(endpoint), std::move(credentials),
                                           std::move(region));
}

}  // namespace ddbd
