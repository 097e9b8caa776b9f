#include "protocol/projection.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>

namespace ddbd {
namespace {

constexpr const char* kPrefix = "Invalid ProjectionExpression: ";

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Recursive-descent reader of "path (, path)*" where path is name (.name | [index])*.
class PathParser {
 public:
  PathParser(std::string_view text, const std::map<std::string, std::string>& names,
             std::set<std::string>& used)
      : text_(text), names_(names), used_(used) {}

  Result<std::vector<DocumentPath>> Parse() {
    std::vector<DocumentPath> paths;
    while (true) {
      auto path = ParsePath();
      if (!path.ok()) return path.error();
      paths.push_back(std::move(path).value());
      SkipSpace();
      if (position_ == text_.size()) return paths;
      if (text_[position_] != ',') return SyntaxError();
      Advance(1);
    }
  }

 private:
  void SkipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
  }
  void Advance(size_t length) {
    previous_token_start_ = position_;
    position_ += length;
  }
  size_t TokenLength() const {
    if (position_ >= text_.size()) return 0;
    size_t end = position_;
    if (text_[end] == '#') ++end;
    while (end < text_.size() && IsNameChar(text_[end])) ++end;
    return end == position_ ? 1 : end - position_;
  }
  Error SyntaxError() const {
    const std::string token =
        position_ >= text_.size() ? "<EOF>" : std::string(text_.substr(position_, TokenLength()));
    const size_t near_end = position_ >= text_.size() ? text_.size() : position_ + TokenLength();
    const std::string near(text_.substr(previous_token_start_, near_end - previous_token_start_));
    return Error::Validation(std::string(kPrefix) + "Syntax error; token: \"" + token +
                             "\", near: \"" + near + "\"");
  }

  Result<std::string> ParseName() {
    SkipSpace();
    const size_t length = TokenLength();
    if (length == 0 ||
        !(text_[position_] == '#' || std::isalpha(static_cast<unsigned char>(text_[position_])) ||
          text_[position_] == '_')) {
      return SyntaxError();
    }
    std::string token(text_.substr(position_, length));
    if (token == "#") return SyntaxError();
    Advance(length);
    if (token[0] != '#') return token;
    auto it = names_.find(token);
    if (it == names_.end()) {
      return Error::Validation(
          "An expression attribute name used in the document path is not defined; attribute "
          "name: " +
          token);
    }
    used_.insert(token);
    return it->second;
  }

  Result<DocumentPath> ParsePath() {
    DocumentPath path;
    auto first = ParseName();
    if (!first.ok()) return first.error();
    path.push_back({std::move(first).value(), -1});
    while (true) {
      SkipSpace();
      if (position_ < text_.size() && text_[position_] == '.') {
        Advance(1);
        auto name = ParseName();
        if (!name.ok()) return name.error();
        path.push_back({std::move(name).value(), -1});
      } else if (position_ < text_.size() && text_[position_] == '[') {
        Advance(1);
        SkipSpace();
        const size_t start = position_;
        while (position_ < text_.size() &&
               std::isdigit(static_cast<unsigned char>(text_[position_]))) {
          ++position_;
        }
        if (start == position_ || position_ - start > 9) {
          position_ = start;
          return SyntaxError();
        }
        const int64_t index = std::stoll(std::string(text_.substr(start, position_ - start)));
        previous_token_start_ = start;
        SkipSpace();
        if (position_ >= text_.size() || text_[position_] != ']') return SyntaxError();
        Advance(1);
        path.push_back({"", index});
      } else {
        return path;
      }
    }
  }

  std::string_view text_;
  const std::map<std::string, std::string>& names_;
  std::set<std::string>& used_;
  size_t position_ = 0;
  size_t previous_token_start_ = 0;
};

// DynamoDB refuses a path that is a prefix of another (overlap) or that meets another at the
// same place as a map key and a list index (conflict).
Status CheckPathsDisjoint(const std::vector<DocumentPath>& paths) {
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = i + 1; j < paths.size(); ++j) {
      const DocumentPath& a = paths[i];
      const DocumentPath& b = paths[j];
      size_t common = 0;
      while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
      const char* what = nullptr;
      if (common == a.size() || common == b.size()) {
        what = "overlap";
      } else if (a[common].is_index() != b[common].is_index()) {
        what = "conflict";
      }
      if (what != nullptr) {
        return Error::Validation(std::string(kPrefix) + "Two document paths " + what +
                                 " with each other; must remove or rewrite one of these paths; "
                                 "path one: " +
                                 RenderPath(a) + ", path two: " + RenderPath(b));
      }
    }
  }
  return Ok{};
}

Result<std::map<std::string, std::string>> DecodeNames(const json::Value* value) {
  std::map<std::string, std::string> names;
  auto object = json::AsStructure(value, "ExpressionAttributeNames");
  if (!object.ok()) return object.error();
  for (const auto& member : object.value()->GetObject()) {
    auto text = json::AsString(&member.value);
    if (!text.ok()) return text.error();
    std::string key(member.name.GetString(), member.name.GetStringLength());
    if (key.size() < 2 || key[0] != '#' || !std::all_of(key.begin() + 1, key.end(), IsNameChar)) {
      return Error::Validation(
          "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
    }
    names.emplace(std::move(key), std::string(text.value().value_or("")));
  }
  if (names.empty()) return Error::Validation("ExpressionAttributeNames must not be empty");
  return names;
}

Result<std::optional<std::vector<DocumentPath>>> DecodeAttributesToGet(const json::Value& list) {
  std::vector<DocumentPath> paths;
  for (const auto& element : list.GetArray()) {
    auto name = json::AsString(&element);
    if (!name.ok()) return name.error();
    paths.push_back({{std::string(name.value().value_or("")), -1}});
  }
  if (paths.empty()) {
    return Error::Validation(
        "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  }
  return std::optional<std::vector<DocumentPath>>(std::move(paths));
}

}  // namespace

Result<std::optional<std::vector<DocumentPath>>> DecodeProjection(const json::Value& request) {
  auto expression = json::AsString(json::Member(request, "ProjectionExpression"));
  if (!expression.ok()) return expression.error();
  auto attributes = json::AsList(json::Member(request, "AttributesToGet"));
  if (!attributes.ok()) return attributes.error();
  const json::Value* names_value = json::Member(request, "ExpressionAttributeNames");
  if (expression.value() && attributes.value() != nullptr) {
    return Error::Validation(
        "Can not use both expression and non-expression parameters in the same request: "
        "Non-expression parameters: {AttributesToGet} Expression parameters: "
        "{ProjectionExpression}");
  }
  if (!expression.value()) {
    if (names_value != nullptr) {
      return Error::Validation(
          "ExpressionAttributeNames can only be specified when using expressions");
    }
    if (attributes.value() == nullptr) return std::optional<std::vector<DocumentPath>>();
    return DecodeAttributesToGet(*attributes.value());
  }
  std::map<std::string, std::string> names;
  if (names_value != nullptr) {
    auto decoded = DecodeNames(names_value);
    if (!decoded.ok()) return decoded.error();
    names = std::move(decoded).value();
  }
  std::string_view text = *expression.value();
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Error::Validation(std::string(kPrefix) + "The expression can not be empty;");
  }
  std::set<std::string> used;
  auto paths = PathParser(text, names, used).Parse();
  if (!paths.ok()) return paths.error();
  if (Status disjoint = CheckPathsDisjoint(paths.value()); !disjoint.ok()) return disjoint.error();
  if (used.size() != names.size()) {
    std::string unused;
    for (const auto& [key, value] : names) {
      if (used.contains(key)) continue;
      unused += unused.empty() ? key : ", " + key;
    }
    return Error::Validation(
        "Value provided in ExpressionAttributeNames unused in expressions: "
        "keys: {" +
        unused + "}");
  }
  return std::optional<std::vector<DocumentPath>>(std::move(paths).value());
}

}  // namespace ddbd
