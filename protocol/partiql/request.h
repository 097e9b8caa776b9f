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
#include "protocol/validation_messages.h"

namespace ddbd::partiql {

struct StatementRequest {
  std::string statement;
  std::vector<AttributeValue> parameters;
  // The request's Parameters as sent (null when absent), valid while the request is handled.
  const json::Value* parameters_json = nullptr;
  bool consistent_read = false;
  bool return_item_on_condition_failure = false;  // ReturnValuesOnConditionCheckFailure ALL_OLD
};

// Reads `object`'s members into `out`: wrongly typed JSON is returned at once, constraint
// failures (under `path`, such as "" or "statements.1.member.") go to `errors`, invalid
// parameter values to `decoder`.
Status DecodeStatementRequest(const json::Value& object, const std::string& path,
                              AttributeDecoder& decoder, ConstraintErrors& errors,
                              StatementRequest& out);

// The fingerprint a NextToken is bound to: of the statement and its parameters as sent.
uint64_t Fingerprint(const StatementRequest& request);

}  // namespace ddbd::partiql
