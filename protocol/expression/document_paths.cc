#include "protocol/expression/document_paths.h"

#include <algorithm>

#include "protocol/ascii.h"
#include "protocol/expression/reserved_words.h"

namespace ddbd {
namespace {

constexpr size_t kMaxPathDepth = 32;

}  // namespace

Status DeferredErrors::First() const {
  if (reserved_word) return *reserved_word;
  if (undefined_name) return *undefined_name;
  if (values_in_written_order && first_value_or_semantic) return *first_value_or_semantic;
  if (undefined_value) return *undefined_value;
  if (semantic) return *semantic;
  return Ok{};
}

Result<ExpressionNames> ExpressionNames::Decode(const json::Value* value) {
  ExpressionNames names;
  if (value == nullptr) return names;
  names.given_ = true;
  for (const auto& member : value->GetObject()) {
    if (member.value.IsNull()) continue;
    const std::string_view text(member.value.GetString(), member.value.GetStringLength());
    std::string key(member.name.GetString(), member.name.GetStringLength());
    if (key.size() > 255) {  // checked before the key's syntax (measured)
      return Error::Validation(
          "ExpressionAttributeNames contains invalid key: The expression attribute map contains a "
          "key that is too long; size of key: " +
          std::to_string(key.size()));
    }
    const bool valid_key = key.size() >= 2 && key[0] == '#' &&
                           std::all_of(key.begin() + 1, key.end(), AsciiIsWordChar);
    if (!valid_key) {
      return Error::Validation(
          "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
    }
    if (text.empty()) {
      return Error::Validation(
          "ExpressionAttributeNames contains invalid value: Empty attribute name for key " + key);
    }
    names.names_.emplace(std::move(key), Placeholder{std::string(text)});
  }
  if (names.names_.empty()) return Error::Validation("ExpressionAttributeNames must not be empty");
  return names;
}

ExpressionNames ExpressionNames::Unbound() {
  ExpressionNames names;
  names.unbound_ = true;
  return names;
}

std::string ExpressionNames::Resolve(std::string_view placeholder, const TokenStream& tokens,
                                     DeferredErrors& errors) {
  if (unbound_) return std::string(placeholder);
  if (const std::string* name = Use(placeholder)) return *name;
  if (!errors.undefined_name) {
    errors.undefined_name = tokens.Invalid(
        "An expression attribute name used in the document path is not defined; attribute "
        "name: " +
        std::string(placeholder));
  }
  return "";
}

const std::string* ExpressionNames::Use(std::string_view placeholder) {
  auto it = names_.find(placeholder);
  if (it == names_.end()) return nullptr;
  it->second.used = true;
  return &it->second.name;
}

Status ExpressionNames::CheckAllUsed() const {
  std::string unused;
  for (const auto& [key, placeholder] : names_) {
    if (placeholder.used) continue;
    unused += unused.empty() ? key : ", " + key;
  }
  if (unused.empty()) return Ok{};
  return Error::Validation(
      "Value provided in ExpressionAttributeNames unused in expressions: keys: {" + unused + "}");
}

std::optional<std::string> PathsClash(const DocumentPath& a, const DocumentPath& b) {
  size_t common = 0;
  while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
  const char* what = nullptr;
  if (common == a.size() || common == b.size()) {
    what = "overlap";
  } else if (a[common].is_index() != b[common].is_index()) {
    what = "conflict";
  }
  if (what == nullptr) return std::nullopt;
  return std::string("Two document paths ") + what +
         " with each other; must remove or rewrite one of these paths; path one: " + RenderPath(a) +
         ", path two: " + RenderPath(b);
}

namespace {

// The first element, or a map key after '.': a name or a #placeholder.
Result<std::string> ParseName(TokenStream& tokens, ExpressionNames& names, DeferredErrors& errors) {
  const Token& token = tokens.Peek();
  if (token.kind == TokenKind::kNamePlaceholder) {
    tokens.Next();
    return names.Resolve(token.text, tokens, errors);
  }
  if (token.kind != TokenKind::kIdentifier) return tokens.SyntaxError();
  if (IsReservedWord(token.text) && !errors.reserved_word) {
    errors.reserved_word = tokens.Invalid(
        "Attribute name is a reserved keyword; reserved keyword: " + std::string(token.text));
  }
  tokens.Next();
  return std::string(token.text);
}

}  // namespace

Result<DocumentPath> ParseDocumentPath(TokenStream& tokens, ExpressionNames& names,
                                       DeferredErrors& errors) {
  DocumentPath path;
  auto first = ParseName(tokens, names, errors);
  if (!first.ok()) return first.error();
  path.push_back({std::move(first).value(), -1});
  while (true) {
    if (tokens.Accept(".")) {
      auto name = ParseName(tokens, names, errors);
      if (!name.ok()) return name.error();
      path.push_back({std::move(name).value(), -1});
    } else if (tokens.Accept("[")) {
      const Token& index = tokens.Peek();
      if (index.kind != TokenKind::kNumber) return tokens.SyntaxError();
      tokens.Next();
      if (!tokens.Accept("]")) return tokens.SyntaxError();
      // A list index is a 32-bit signed integer in DynamoDB.
      int64_t value = 0;
      for (char digit : index.text)
        value = std::min<int64_t>(value * 10 + (digit - '0'), 1LL << 32);
      if (value > 2147483647) {
        errors.Semantic(tokens.Invalid("List index is not within the allowable range; index: [" +
                                       std::string(index.text) + "]"));
        value = 0;
      }
      path.push_back({"", value});
    } else {
      // Items nest 32 levels at most, so no longer path can name anything; refusing it also
      // bounds every walk over paths (projection trees, updates) however long the text is.
      if (path.size() > kMaxPathDepth) {
        errors.Semantic(
            tokens.Invalid("The document path has too many nesting levels; nesting levels: " +
                           std::to_string(path.size())));
      }
      return path;
    }
  }
}

}  // namespace ddbd
