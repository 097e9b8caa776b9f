#include "protocol/partiql/request.h"

#include "protocol/generated/enums.h"
#include "protocol/json_writer.h"
#include "protocol/partiql/next_token.h"

namespace ddbd::partiql {
namespace {

constexpr size_t kMaxStatementLength = 8192;

}  // namespace

Status DecodeStatementRequest(const json::Value& object, const std::string& path,
                              AttributeDecoder& decoder, ConstraintErrors& errors,
                              StatementRequest& out) {
  auto statement = json::AsString(json::Member(object, "Statement"));
  if (!statement.ok()) return statement.error();
  if (!statement.value()) {
    errors.MustNotBeNull(path + "statement");
  } else {
    out.statement = std::string(*statement.value());
    if (out.statement.empty()) errors.MinLength(out.statement, path + "statement", 1);
    if (out.statement.size() > kMaxStatementLength) {
      errors.MaxLength(out.statement, path + "statement", kMaxStatementLength);
    }
  }
  auto parameters = json::AsList(json::Member(object, "Parameters"));
  if (!parameters.ok()) return parameters.error();
  if (const json::Value* list = parameters.value()) {
    if (list->Empty()) {
      errors.Add("'[]'", path + "parameters", "Member must have length greater than or equal to 1");
    }
    for (const json::Value& element : list->GetArray()) {
      out.parameters.push_back(decoder.DecodeValue(element));
    }
    out.parameters_json = list;
  }
  auto consistent = json::AsBoolean(json::Member(object, "ConsistentRead"));
  if (!consistent.ok()) return consistent.error();
  out.consistent_read = consistent.value().value_or(false);
  auto on_failure = json::AsString(json::Member(object, "ReturnValuesOnConditionCheckFailure"));
  if (!on_failure.ok()) return on_failure.error();
  if (on_failure.value()) {
    out.return_item_on_condition_failure = *on_failure.value() == "ALL_OLD";
    if (*on_failure.value() != "ALL_OLD" && *on_failure.value() != "NONE") {
      errors.Enum(*on_failure.value(), path + "returnValuesOnConditionCheckFailure",
                  wire::kReturnValuesOnConditionCheckFailure);
    }
  }
  return Ok{};
}

// Computed only when a NextToken is read or written: most statements need none.
uint64_t Fingerprint(const StatementRequest& request) {
  if (request.parameters_json == nullptr) return StatementFingerprint(request.statement, "");
  json::Buffer buffer;
  json::Writer writer(buffer);
  request.parameters_json->Accept(writer);
  return StatementFingerprint(request.statement,
                              std::string_view(buffer.GetString(), buffer.GetSize()));
}

}  // namespace ddbd::partiql
