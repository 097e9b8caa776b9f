#include "protocol/dispatcher.h"

#include <absl/container/flat_hash_map.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "engine/engine.h"
#include "protocol/error_response.h"
#include "protocol/json_writer.h"
#include "protocol/operations/operations.h"

namespace ddbd {
namespace {

constexpr std::string_view kDynamoDbPrefix = "DynamoDB_20120810";

const absl::flat_hash_map<std::string_view, operations::Handler>& Handlers() {
  static const auto* handlers = new absl::flat_hash_map<std::string_view, operations::Handler>{
      {"BatchGetItem", &operations::BatchGetItem},
      {"BatchWriteItem", &operations::BatchWriteItem},
      {"CreateTable", &operations::CreateTable},
      {"DeleteItem", &operations::DeleteItem},
      {"DeleteTable", &operations::DeleteTable},
      {"DescribeLimits", &operations::DescribeLimits},
      {"DescribeTable", &operations::DescribeTable},
      {"GetItem", &operations::GetItem},
      {"ListTables", &operations::ListTables},
      {"PutItem", &operations::PutItem},
      {"Query", &operations::Query},
      {"Scan", &operations::Scan},
      {"TransactGetItems", &operations::TransactGetItems},
      {"TransactWriteItems", &operations::TransactWriteItems},
      {"UpdateItem", &operations::UpdateItem},
      {"UpdateTable", &operations::UpdateTable},
  };
  return *handlers;
}

Error UnknownOperation() { return {ErrorCode::kUnknownOperation, ""}; }

// Parses without recursion (deeply nested bodies cannot exhaust the stack) and rejects
// invalid UTF-8, as DynamoDB's parser does.
bool Parse(std::string_view body, rapidjson::Document& document) {
  constexpr unsigned kFlags =
      rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
  document.Parse<kFlags>(body.data(), body.size());
  return !document.HasParseError();
}

}  // namespace

DispatchResult Dispatcher::Handle(std::string_view target, std::string_view body,
                                  const RequestInfo& info) const {
  // The order of these checks is DynamoDB's: body syntax, then target, then authentication.
  rapidjson::Document document;
  if (!body.empty() && !Parse(body, document)) {
    return ErrorResponse(Error::Serialization(""));
  }
  const size_t dot = target.find('.');
  if (dot == std::string_view::npos || target.substr(0, dot) != kDynamoDbPrefix) {
    return ErrorResponse(UnknownOperation());
  }
  auto handler = Handlers().find(target.substr(dot + 1));
  if (handler == Handlers().end()) return ErrorResponse(UnknownOperation());
  if (!info.has_authorization) {
    return ErrorResponse(
        {ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token"});
  }
  if (body.empty() || !document.IsObject()) return ErrorResponse(Error::Serialization(""));

  // Room for most answers up front: growing from RapidJSON's 256 bytes by half each time cost
  // several reallocations and copies per Query page.
  json::Buffer buffer(nullptr, 16 * 1024);
  json::Writer writer(buffer);
  Status status = handler->second(engine_, document, writer);
  if (!status.ok()) return ErrorResponse(status.error());
  return {200, std::string(buffer.GetString(), buffer.GetSize())};
}

DispatchResult Dispatcher::InternalServerError() {
  return ErrorResponse(Error::Internal("Internal server error"));
}

}  // namespace ddbd
