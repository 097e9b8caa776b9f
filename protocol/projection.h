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

// The members a projection is read from, of a request the generated layer has read and checked
// (GetItemInput, KeysAndAttributes, Get, QueryInput, ScanInput).
struct ProjectionMembers {
  std::optional<std::string_view> projection_expression;
  const json::Value* attributes_to_get = nullptr;
  const json::Value* expression_attribute_names = nullptr;
};
template <typename Input>
ProjectionMembers ProjectionMembersOf(const Input& input) {
  ProjectionMembers members;
  members.projection_expression = input.projection_expression;
  if constexpr (requires { input.attributes_to_get; }) {
    members.attributes_to_get = input.attributes_to_get;
  }
  members.expression_attribute_names = input.expression_attribute_names;
  return members;
}

// ProjectionExpression with ExpressionAttributeNames, or AttributesToGet. Nullopt: no
// projection, whole items. With `shared_names` (Query, Scan), the names belong to the caller,
// which also reports unused ones across all the request's expressions.
Result<std::optional<std::vector<DocumentPath>>> DecodeProjection(
    const ProjectionMembers& members, ExpressionNames* shared_names = nullptr);

}  // namespace ddbd
