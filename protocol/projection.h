// The projection of a read request: ProjectionExpression with ExpressionAttributeNames, or the
// legacy AttributesToGet, decoded to document paths with DynamoDB's checks and messages.
// (The full expression grammar, reserved words included, arrives with the expression parser.)
#pragma once

#include <optional>
#include <vector>

#include "engine/document_path.h"
#include "engine/error.h"
#include "protocol/json_reader.h"

namespace ddbd {

// Reads ProjectionExpression, ExpressionAttributeNames and AttributesToGet from `request` (a
// GetItem request or a BatchGetItem KeysAndAttributes). Nullopt: no projection, whole items.
Result<std::optional<std::vector<DocumentPath>>> DecodeProjection(const json::Value& request);

}  // namespace ddbd
