// Fuzzes the whole request path below the socket: operation names and JSON bodies through the
// dispatcher (JSON parsing, decoding, validation, expression parsing) into the engine (writes,
// index maintenance, reads, evaluation, encoding) and back to a response body.
//
// An input is up to 8 requests separated by the byte 0x1E; each is an operation name, a newline,
// and the body ("PutItem\n{...}"; a name without a '.' gets "DynamoDB_20120810.", or
// "DynamoDBStreams_20120810." for the four Streams operations). Every input starts from a fresh
// engine holding two tables with a few items, streams on both and TTL on one, so a crash
// reproduces from the input alone. "@iterator@" in a body stands for the last ShardIterator
// answered and "@shard@" for the last shard id an answer named, so GetShardIterator and
// GetRecords are reached with valid ones; the TTL sweep runs after each
// request. Any crash, sanitizer report, hang or non-JSON answer is a bug.
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/engine.h"
#include "protocol/dispatcher.h"

namespace {

constexpr size_t kMaxRequests = 8;

// "Hash": a hash key only, and a vector index. "Ranged": hash + range, an LSI and a GSI, so writes
// maintain indexes.
constexpr const char* kSetUp[][2] = {
    {"CreateTable",
     R"({"TableName":"Hash","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
     R"({"AttributeName":"c","AttributeType":"S"}],)"
     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",)"
     R"("VectorIndexes":[{"IndexName":"ByV","VectorAttribute":{"AttributeName":"v"},)"
     R"("Dimensions":2,"DistanceFunction":"DOT_PRODUCT","Projection":{"ProjectionType":)"
     R"("KEYS_ONLY"},"SearchSchema":[{"AttributeName":"c","SearchSchemaElementType":)"
     R"("INLINE_FILTER"}]}],)"
     R"("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})"},
    {"CreateTable",
     R"({"TableName":"Ranged","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
     R"({"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"l","AttributeType":"S"},)"
     R"({"AttributeName":"g","AttributeType":"B"}],"KeySchema":[{"AttributeName":"pk","KeyType":)"
     R"("HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST",)"
     R"("LocalSecondaryIndexes":[{"IndexName":"ByL","KeySchema":[{"AttributeName":"pk",)"
     R"("KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{)"
     R"("ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],"GlobalSecondaryIndexes":[{)"
     R"("IndexName":"ByG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":)"
     R"("sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],)"
     R"("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}})"},
    {"UpdateTimeToLive",
     R"({"TableName":"Ranged","TimeToLiveSpecification":{"AttributeName":"a","Enabled":true}})"},
    {"PutItem",
     R"({"TableName":"Hash","Item":{"pk":{"S":"a"},"n":{"N":"1"},"l":{"L":[{"S":"x"},)"
     R"({"M":{"k":{"NS":["1","2"]}}}]},"m":{"M":{"b":{"BOOL":true},"z":{"NULL":true}}}}})"},
    {"PutItem", R"({"TableName":"Hash","Item":{"pk":{"S":"b"},"s":{"SS":["x","y"]}}})"},
    {"PutItem", R"({"TableName":"Hash","Item":{"pk":{"S":"v"},"c":{"S":"x"},)"
                R"("v":{"L":[{"N":"1.5"},{"N":"-2"}]}}})"},
    {"PutItem", R"({"TableName":"Ranged","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"l":{"S":"q"},)"
                R"("g":{"B":"AQI="},"a":{"N":"-3.5"}}})"},
    {"PutItem",
     R"({"TableName":"Ranged","Item":{"pk":{"S":"a"},"sk":{"N":"2"},"l":{"S":"r"},"b":{"S":"t"}}})"},
};

// The answer's JSON; aborts on an answer SDKs would drop. TagResource and UntagResource have no
// output shape: their success is 200 with an empty body, as DynamoDB sends it.
rapidjson::Document Check(std::string_view target, const ddbd::DispatchResult& result) {
  rapidjson::Document document;
  const bool no_output =
      target == "DynamoDB_20120810.TagResource" || target == "DynamoDB_20120810.UntagResource";
  if (no_output && result.http_status == 200 && result.body.empty()) {
    document.SetObject();
    return document;
  }
  document.Parse(result.body.data(), result.body.size());
  if (document.HasParseError() || !document.IsObject()) {
    std::fprintf(stderr, "not a JSON object (HTTP %d): %s\n", result.http_status,
                 result.body.c_str());
    std::abort();
  }
  return document;
}

// The target prefix of the served operation `name` (protocol/generated/operations.inc), or
// DynamoDB's for a name none has.
std::string_view PrefixOf(std::string_view name) {
#define DDBD_OPERATION(service, target_prefix, operation) \
  if (name == #operation) return #target_prefix;
#include "protocol/generated/operations.inc"
#undef DDBD_OPERATION
  return "DynamoDB_20120810";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ddbd::ManualClock clock;
  ddbd::Engine engine({}, clock);
  const ddbd::Dispatcher dispatcher(engine);
  const ddbd::RequestInfo info{.has_authorization = true};
  for (const auto& [operation, body] : kSetUp) {
    if (dispatcher.Handle(std::string("DynamoDB_20120810.") + operation, body, info).http_status !=
        200) {
      std::abort();
    }
  }
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string iterator;
  std::string shard = "shardId-00000000000000000000-00000000";
  for (size_t i = 0; i < kMaxRequests && !input.empty(); ++i) {
    const size_t end = std::min(input.find('\x1e'), input.size());
    std::string_view request = input.substr(0, end);
    input.remove_prefix(std::min(end + 1, input.size()));
    const size_t newline = std::min(request.find('\n'), request.size());
    std::string target(request.substr(0, newline));
    if (target.find('.') == std::string::npos) {
      target = std::string(PrefixOf(target)) + "." + target;
    }
    request.remove_prefix(std::min(newline + 1, request.size()));
    std::string body(request);
    for (const auto& [token, value] :
         {std::pair<std::string_view, const std::string&>{"@iterator@", iterator},
          {"@shard@", shard}}) {
      for (size_t at = body.find(token); at != std::string::npos;
           at = body.find(token, at + value.size())) {
        body.replace(at, token.size(), value);
      }
    }
    const ddbd::DispatchResult result = dispatcher.Handle(target, body, info);
    const rapidjson::Document answer = Check(target, result);
    if (const size_t at = result.body.find("shardId-"); at != std::string::npos) {
      shard = result.body.substr(at, 37);
    }
    if (answer.HasMember("ShardIterator") && answer["ShardIterator"].IsString()) {
      iterator = answer["ShardIterator"].GetString();
    } else if (answer.HasMember("NextShardIterator") && answer["NextShardIterator"].IsString()) {
      iterator = answer["NextShardIterator"].GetString();
    }
    engine.SweepExpiredItems(64);
  }
  return 0;
}
