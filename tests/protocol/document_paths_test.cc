#include "protocol/expression/document_paths.h"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include "protocol/expression/reserved_words.h"

namespace ddbd {
namespace {

// Parses one path from `text`; returns its rendering or the error message.
std::string Parse(const std::string& text, const std::string& names_json = "") {
  rapidjson::Document names_document;
  if (!names_json.empty()) names_document.Parse(names_json.c_str());
  auto names = ExpressionNames::Decode(names_json.empty() ? nullptr : &names_document);
  if (!names.ok()) return names.error().message();
  TokenStream tokens(text, "ProjectionExpression");
  DeferredErrors deferred;
  auto path = ParseDocumentPath(tokens, names.value(), deferred);
  if (!path.ok()) return path.error().message();
  if (!tokens.AtEnd()) return tokens.SyntaxError().message();
  if (Status first = deferred.First(); !first.ok()) return first.error().message();
  return RenderPath(path.value());
}

TEST_CASE("Reserved words are matched in any case") {
  CHECK(IsReservedWord("name"));
  CHECK(IsReservedWord("NAME"));
  CHECK(IsReservedWord("Status"));
  CHECK(IsReservedWord("zone"));
  CHECK(IsReservedWord("abort"));
  CHECK_FALSE(IsReservedWord("username"));
  CHECK_FALSE(IsReservedWord("pk"));
  // The longest word, and words past it (looked up in a buffer of the longest's length).
  CHECK(IsReservedWord("localTimestamp"));
  CHECK_FALSE(IsReservedWord("localtimestamps"));
  CHECK_FALSE(IsReservedWord("localtimestamplocaltimestamp"));
  CHECK_FALSE(IsReservedWord(""));
  CHECK_FALSE(IsReservedWord("na\xc3\xa9me"));  // bytes past ASCII are no letters
}

TEST_CASE("Document paths parse with placeholders and list indexes") {
  CHECK(Parse("a.b[2].c") == "[a, b, [2], c]");
  CHECK(Parse("#n[0][1]", R"({"#n":"name"})") == "[name, [0], [1]]");
  CHECK(Parse(" a . b ") == "[a, b]");
  CHECK(Parse("a[2147483647]") == "[a, [2147483647]]");
}

TEST_CASE("List indexes are 32-bit, paths at most 32 elements") {
  CHECK(Parse("a[2147483648]") ==
        "Invalid ProjectionExpression: List index is not within the allowable range; index: "
        "[2147483648]");
  CHECK(Parse("a[99999999999999999999999].b") ==
        "Invalid ProjectionExpression: List index is not within the allowable range; index: "
        "[99999999999999999999999]");
  std::string deep = "a";
  for (int i = 0; i < 31; ++i) deep += ".a";
  CHECK(Parse(deep).starts_with("[a, a"));
  CHECK(Parse(deep + "[0]") ==
        "Invalid ProjectionExpression: The document path has too many nesting levels; nesting "
        "levels: 33");
}

TEST_CASE("Path errors carry DynamoDB's texts, syntax first") {
  CHECK(Parse("a.") == R"(Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ".")");
  CHECK(Parse("a[x]") == R"(Invalid ProjectionExpression: Syntax error; token: "x", near: "[x]")");
  CHECK(Parse("name.size") ==
        "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: "
        "name");
  CHECK(Parse("#missing") ==
        "Invalid ProjectionExpression: An expression attribute name used in the document path "
        "is not defined; attribute name: #missing");
  // A syntax error later in the expression wins over an earlier reserved word.
  CHECK(Parse("name[") ==
        R"(Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: "[")");
  CHECK(Parse("a", "{}") == "ExpressionAttributeNames must not be empty");
  CHECK(Parse("a", R"({"n":"x"})") ==
        R"(ExpressionAttributeNames contains invalid key: Syntax error; key: "n")");
}

}  // namespace
}  // namespace ddbd
