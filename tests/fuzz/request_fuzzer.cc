// Fuzzes the whole request path below the socket: operation names and JSON bodies through the
// dispatcher (JSON parsing, decoding, validation, expression parsing) into the engine (writes,
// index maintenance, reads, evaluation, encoding) and back to a response body.
//
// An input is up to 8 requests separated by the byte 0x1E; each is an operation name, a newline,
// and the body ("PutItem\n{...}"; a name without a '.' gets "DynamoDB_20120810."). Every input
// starts from a fresh engine holding two tables with a few items, so a crash reproduces from the
// input alone. Any crash, sanitizer report, hang or non-JSON answer is a bug.
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/clock.h"
#include "engine/engine.h"
#include "protocol/dispatcher.h"

namespace {

constexpr size_t kMaxRequests = 8;

// "Hash": a hash key only. "Ranged": hash + range, an LSI and a GSI, so writes maintain indexes.
constexpr const char* kSetUp[][2] = {
    {"CreateTable",
     R"({"TableName":"Hash","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"})"},
    {"CreateTable",
     R"({"TableName":"Ranged","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
     R"({"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"l","AttributeType":"S"},)"
     R"({"AttributeName":"g","AttributeType":"B"}],"KeySchema":[{"AttributeName":"pk","KeyType":)"
     R"("HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST",)"
     R"("LocalSecondaryIndexes":[{"IndexName":"ByL","KeySchema":[{"AttributeName":"pk",)"
     R"("KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{)"
     R"("ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],"GlobalSecondaryIndexes":[{)"
     R"("IndexName":"ByG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":)"
     R"("sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]})"},
    {"PutItem",
     R"({"TableName":"Hash","Item":{"pk":{"S":"a"},"n":{"N":"1"},"l":{"L":[{"S":"x"},)"
     R"({"M":{"k":{"NS":["1","2"]}}}]},"m":{"M":{"b":{"BOOL":true},"z":{"NULL":true}}}}})"},
    {"PutItem", R"({"TableName":"Hash","Item":{"pk":{"S":"b"},"s":{"SS":["x","y"]}}})"},
    {"PutItem", R"({"TableName":"Ranged","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"l":{"S":"q"},)"
                R"("g":{"B":"AQI="},"a":{"N":"-3.5"}}})"},
    {"PutItem",
     R"({"TableName":"Ranged","Item":{"pk":{"S":"a"},"sk":{"N":"2"},"l":{"S":"r"},"b":{"S":"t"}}})"},
};

void Check(const ddbd::DispatchResult& result) {
  rapidjson::Document document;
  document.Parse(result.body.data(), result.body.size());
  if (document.HasParseError() || !document.IsObject()) std::abort();  // an answer SDKs drop
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
  for (size_t i = 0; i < kMaxRequests && !input.empty(); ++i) {
    const size_t end = std::min(input.find('\x1e'), input.size());
    std::string_view request = input.substr(0, end);
    input.remove_prefix(std::min(end + 1, input.size()));
    const size_t newline = std::min(request.find('\n'), request.size());
    std::string target(request.substr(0, newline));
    if (target.find('.') == std::string::npos) target = "DynamoDB_20120810." + target;
    request.remove_prefix(std::min(newline + 1, request.size()));
    Check(dispatcher.Handle(target, request, info));
  }
  return 0;
}
