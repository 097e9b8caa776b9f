// A PartiQL statement as requests carry it: ExecuteStatement's own members, each
// BatchStatementRequest of a BatchExecuteStatement and each ParameterizedStatement of an
// ExecuteTransaction share Statement, Parameters, ConsistentRead and
// ReturnValuesOnConditionCheckFailure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "protocol/attribute_value_json.h"
#include "protocol/json_reader.h"

namespace ddbd::partiql {

struct StatementRequest {
  std::string statement;
  std::vector<AttributeValue> parameters;
  // The request's Parameters as sent (null when absent), valid while the request is handled.
  const json::Value* parameters_json = nullptr;
  bool consistent_read = false;
  bool return_item_on_condition_failure = false;  // ReturnValuesOnConditionCheckFailure ALL_OLD
};

// A statement of a request the generated layer has read and checked (ExecuteStatementInput,
// BatchStatementRequest, ParameterizedStatement): its parameters' values go through `decoder`.
template <typename Input>
StatementRequest StatementRequestOf(const Input& in, AttributeDecoder& decoder) {
  StatementRequest out;
  out.statement = std::string(in.statement);
  if (in.parameters != nullptr) {
    for (const json::Value& element : in.parameters->GetArray()) {
      out.parameters.push_back(decoder.DecodeValue(element));
    }
    out.parameters_json = in.parameters;
  }
  if constexpr (requires { in.consistent_read; }) {
    out.consistent_read = in.consistent_read.value_or(false);
  }
  out.return_item_on_condition_failure = in.return_values_on_condition_check_failure == "ALL_OLD";
  return out;
}

// The fingerprint a NextToken is bound to: of the statement and its parameters as sent.
uint64_t Fingerprint(const StatementRequest& request);

}  // namespace ddbd::partiql
