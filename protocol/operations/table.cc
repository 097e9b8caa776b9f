// The operation table: every operation ddbd serves (protocol/generated/operations.inc), each as
// its typed handler (operations.h) behind an untyped entry that reads the body into the handler's
// input with the generated layer. In a file of its own so that the dispatcher's hot path (the
// body's parse) is compiled apart from the forty handlers' decoders.
#include "protocol/operations/table.h"

#include <absl/container/flat_hash_map.h>

#include "protocol/error_response.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810";
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810";

// Reads `body` into the handler H's input (the generated Decode) and calls H with `rest`, or
// answers the read's failure: a SerializationException, or the constraints' answer, which an
// input holding attribute values hands H instead (it comes after their own serialization
// errors).
template <auto H, class Input, class... Rest>
Status ReadAndCall(Engine& engine, const json::Value& body, Rest&... rest) {
  Input in;
  if constexpr (Input::kHoldsAttributeValues) {
    Status constraints = Ok{};
    if (Status read = wire::Decode(body, in, &constraints); !read.ok()) return read;
    return H(engine, in, constraints, rest...);
  } else {
    if (Status read = wire::Decode(body, in); !read.ok()) return read;
    return H(engine, in, rest...);
  }
}

// An Operation of a typed handler, by the handler's signature.
template <auto H, class Input>
Operation Of(Status (*)(Engine&, const Input&, json::Writer&)) {
  return {.handler = [](Engine& engine, const json::Value& body, json::Writer& response) {
    return ReadAndCall<H, Input>(engine, body, response);
  }};
}
template <auto H, class Input>
Operation Of(Status (*)(Engine&, const Input&, const Status&, json::Writer&)) {
  return {.handler = [](Engine& engine, const json::Value& body, json::Writer& response) {
    return ReadAndCall<H, Input>(engine, body, response);
  }};
}
template <auto H, class Input>
Operation Of(Status (*)(Engine&, const Input&, json::Writer&, Ticket&)) {
  return {
      .write = [](Engine& engine, const json::Value& body, json::Writer& response, Ticket& ticket) {
        return ReadAndCall<H, Input>(engine, body, response, ticket);
      }};
}
template <auto H, class Input>
Operation Of(Status (*)(Engine&, const Input&, const Status&, json::Writer&, Ticket&)) {
  return {
      .write = [](Engine& engine, const json::Value& body, json::Writer& response, Ticket& ticket) {
        return ReadAndCall<H, Input>(engine, body, response, ticket);
      }};
}
template <auto H, class Input>
Operation Of(void (*)(Engine&, const Input&, const Status&, uint64_t, const DispatchDone&)) {
  static_assert(Input::kHoldsAttributeValues);
  return {.async = [](Engine& engine, const json::Value& body, uint64_t fingerprint,
                      const DispatchDone& done) {
    Input in;
    Status constraints = Ok{};
    if (Status read = wire::Decode(body, in, &constraints); !read.ok()) {
      return done(ErrorResponse(read.error()));
    }
    H(engine, in, constraints, fingerprint, done);
  }};
}
template <auto H, class Input>
Operation Of(Status (*)(const Engine&, const RequestInfo&, const Input&, json::Writer&)) {
  static_assert(!Input::kHoldsAttributeValues);
  return {.with_info = [](const Engine& engine, const RequestInfo& info, const json::Value& body,
                          json::Writer& response) {
    Input in;
    if (Status read = wire::Decode(body, in); !read.ok()) return read;
    return H(engine, info, in, response);
  }};
}

// The operations ddbd serves under one target prefix (protocol/generated/operations.inc, the one
// list of them), each to the handler of the same name in protocol/operations/operations.h.
const absl::flat_hash_map<std::string_view, Operation>* ServedUnder(std::string_view prefix) {
  auto* table = new absl::flat_hash_map<std::string_view, Operation>;
#define DDBD_OPERATION(service, target_prefix, name) \
  if (prefix == #target_prefix) table->emplace(#name, Of<&name>(&name));
#include "protocol/generated/operations.inc"
#undef DDBD_OPERATION
  return table;
}

const absl::flat_hash_map<std::string_view, Operation>& Handlers() {
  static const auto* handlers = ServedUnder(kDynamoDbPrefix);
  return *handlers;
}

// DynamoDB Streams answers at its own endpoint with its own target prefix; one server takes both.
const absl::flat_hash_map<std::string_view, Operation>& StreamsHandlers() {
  static const auto* handlers = ServedUnder(kStreamsPrefix);
  return *handlers;
}

}  // namespace

const Operation* Find(std::string_view target) {
  const size_t dot = target.find('.');
  const std::string_view prefix = target.substr(0, std::min(dot, target.size()));
  if (dot == std::string_view::npos || (prefix != kDynamoDbPrefix && prefix != kStreamsPrefix)) {
    return nullptr;
  }
  const auto& handlers = prefix == kDynamoDbPrefix ? Handlers() : StreamsHandlers();
  auto handler = handlers.find(target.substr(dot + 1));
  return handler == handlers.end() ? nullptr : &handler->second;
}

}  // namespace ddbd::operations
