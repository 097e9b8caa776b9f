// The projection of a read request: ProjectionExpression with ExpressionAttributeNames, or the
// legacy AttributesToGet, decoded to document paths with DynamoDB's checks and messages.
// (The full expression grammar, reserved words included, arrives with the expression parser.)
#pragma once

#include <optional>
#include <vector>

#include "engine/error.h"
#include "engine/model/document_path.h"
#include "protocol/expression/document_paths.h"
#include "protocol/json_reader.h"

namespace ddbd {

// Reads ProjectionExpression, ExpressionAttributeNames and AttributesToGet from `request` (a
// GetItem request or a BatchGetItem KeysAndAttributes). Nullopt: no projection, whole items.
// With `shared_names` (Query, Scan), the names belong to the caller, which also reports unused
// ones across all the request's expressions.
Result<std::optional<std::vector<DocumentPath>>> DecodeProjection(
    const json::Value& request, ExpressionNames* shared_names = nullptr);

}  // namespace ddbd
