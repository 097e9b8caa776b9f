#include "protocol/projection.h"

#include <string>

#include "protocol/expression/document_paths.h"
#include "protocol/legacy_parameters.h"
#include "protocol/wire/reader.h"

namespace ddbd {
namespace {

constexpr const char* kProjectionPrefix = "Invalid ProjectionExpression: ";

// No two paths may overlap or conflict (PathsClash).
Status CheckPathsDisjoint(const std::vector<DocumentPath>& paths) {
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = i + 1; j < paths.size(); ++j) {
      if (auto clash = PathsClash(paths[i], paths[j])) {
        return Error::Validation(kProjectionPrefix + *clash);
      }
    }
  }
  return Ok{};
}

Result<std::optional<std::vector<DocumentPath>>> DecodeAttributesToGet(const json::Value& list) {
  std::vector<std::string> names;
  for (const auto& element : list.GetArray())
    names.emplace_back(wire::String(&element).value_or(""));
  std::vector<DocumentPath> paths;
  for (std::string& name : names) {
    if (name.empty()) return Error::Validation("Empty attribute name");  // as in an item
    for (const DocumentPath& earlier : paths) {
      if (earlier[0].name == name) {
        return Error::Validation(
            "One or more parameter values were invalid: Duplicate value in attribute name: " +
            name);
      }
    }
    paths.push_back({{std::move(name), -1}});
  }
  if (paths.empty()) {
    return Error::Validation(
        "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  }
  return std::optional<std::vector<DocumentPath>>(std::move(paths));
}

}  // namespace

Result<std::optional<std::vector<DocumentPath>>> DecodeProjection(const ProjectionMembers& members,
                                                                  ExpressionNames* shared_names) {
  const std::optional<std::string_view>& expression = members.projection_expression;
  const json::Value* attributes = members.attributes_to_get;
  const json::Value* names_value = members.expression_attribute_names;
  if (Status style = CheckOneParameterStyle({{"AttributesToGet", attributes != nullptr}},
                                            {{"ProjectionExpression", expression.has_value()}});
      !style.ok()) {
    return style.error();
  }
  if (!expression) {
    if (names_value != nullptr && shared_names == nullptr) {
      return Error::Validation(
          "ExpressionAttributeNames can only be specified when using expressions");
    }
    if (attributes == nullptr) return std::optional<std::vector<DocumentPath>>();
    return DecodeAttributesToGet(*attributes);
  }
  Result<ExpressionNames> own_names = ExpressionNames();
  if (shared_names == nullptr) own_names = ExpressionNames::Decode(names_value);
  if (!own_names.ok()) return own_names.error();
  ExpressionNames& names = shared_names != nullptr ? *shared_names : own_names.value();
  std::string_view text = *expression;
  if (text.size() > 4096) {
    return Error::Validation(std::string(kProjectionPrefix) +
                             "Expression size has exceeded the maximum allowed size; expression "
                             "size: " +
                             std::to_string(text.size()));
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Error::Validation(std::string(kProjectionPrefix) + "The expression can not be empty;");
  }
  TokenStream tokens(text, "ProjectionExpression");
  DeferredErrors deferred;
  std::vector<DocumentPath> paths;
  while (true) {
    auto path = ParseDocumentPath(tokens, names, deferred);
    if (!path.ok()) return path.error();
    paths.push_back(std::move(path).value());
    if (tokens.AtEnd()) break;
    if (!tokens.Accept(",")) return tokens.SyntaxError();
  }
  if (Status first = deferred.First(); !first.ok()) return first.error();
  if (Status disjoint = CheckPathsDisjoint(paths); !disjoint.ok()) return disjoint.error();
  if (shared_names == nullptr) {
    if (Status all_used = names.CheckAllUsed(); !all_used.ok()) return all_used.error();
  }
  return std::optional<std::vector<DocumentPath>>(std::move(paths));
}

}  // namespace ddbd
