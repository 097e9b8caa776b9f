#include "server/kinesis_streams.h"

#include <openssl/evp.h>

#include <string_view>
#include <utility>
#include <vector>

#include "protocol/kinesis_record.h"

namespace ddbd {
namespace {

constexpr int kKinesisTimeoutMs = 10'000;

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
    const auto headers =
        SignedJsonHeaders(credentials_, region_, "kinesis", "application/x-amz-json-1.1",
                          endpoint_.HostHeader(), target, body);
    HttpClient client(endpoint_, true, kKinesisTimeoutMs);
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
