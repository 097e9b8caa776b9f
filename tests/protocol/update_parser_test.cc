// UpdateExpression parsing below the socket: parenthesized operands, nesting bounds, operator
// limits, function placement (issue 15).
#include "protocol/expression/update_parser.h"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>
#include <string>

namespace ddbd {
namespace {

std::string UpdateParserRepeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// "ok: <number of actions>" or "error: <message>".
std::string UpdateParserParse(const std::string& expression) {
  rapidjson::Document values_json;
  values_json.Parse(R"({":v":{"N":"1"},":d":{"N":"0"},":l":{"L":[]}})");
  rapidjson::Document names_json;
  names_json.Parse(R"({"#p":"p"})");
  auto names = ExpressionNames::Decode(&names_json);
  auto values = ExpressionValues::Decode(&values_json);
  auto actions = ParseUpdate(expression, names.value(), values.value());
  if (!actions.ok()) return "error: " + actions.error().message();
  return "ok: " + std::to_string(actions.value().size());
}

TEST_CASE("SET operands may be parenthesized", "[update]") {
  CHECK(UpdateParserParse("SET #p = (if_not_exists(#p, :d) - :v)") == "ok: 1");
  CHECK(UpdateParserParse("SET a = (:v)") == "ok: 1");
  CHECK(UpdateParserParse("SET a = (:v) + (b)") == "ok: 1");
  CHECK(UpdateParserParse("SET a = (b + (:v))") == "ok: 1");
  CHECK(UpdateParserParse("SET a = list_append((b), :l)") == "ok: 1");
  CHECK(UpdateParserParse("SET a = ((:v))") ==
        "error: Invalid UpdateExpression: The expression has redundant parentheses;");
  CHECK(UpdateParserParse("SET a = (:v") ==
        "error: Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \":v\"");
}

TEST_CASE("Only if_not_exists nests in a call", "[update]") {
  CHECK(UpdateParserParse("SET l = list_append(if_not_exists(l, :l), :l)") == "ok: 1");
  CHECK(UpdateParserParse("SET l = if_not_exists(l, if_not_exists(m, :l))") == "ok: 1");
  CHECK(UpdateParserParse("SET l = list_append(list_append(l, :l), :l)") ==
        "error: Invalid UpdateExpression: Only if_not_exists() function can be nested");
  CHECK(UpdateParserParse("SET l = if_not_exists(l, list_append(l, :l))") ==
        "error: Invalid UpdateExpression: Only if_not_exists() function can be nested");
  CHECK(UpdateParserParse("SET l = (list_append(l, :l))") ==
        "ok: 1");  // parentheses are not a call
}

TEST_CASE("A name cannot start with '_'", "[update]") {
  CHECK(UpdateParserParse("SET _123 = :v") ==
        R"(error: Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123")");
  CHECK(UpdateParserParse("REMOVE a, _b") ==
        R"(error: Invalid UpdateExpression: Syntax error; token: "_", near: ", _b")");
}

TEST_CASE("SET values nest boundedly and count operators", "[update]") {
  const std::string too_deep = UpdateParserRepeat("(", 2000) + ":v" + UpdateParserRepeat(")", 2000);
  CHECK(UpdateParserParse("SET a = " + too_deep)
            .starts_with("error: Invalid UpdateExpression: Syntax error"));
  CHECK(UpdateParserParse("SET a = " + UpdateParserRepeat("f(", 1300) + ":v" +
                          UpdateParserRepeat(")", 1300)) ==
        "error: Invalid UpdateExpression: Invalid function name; function: f");
  CHECK(UpdateParserParse("SET a = " + UpdateParserRepeat("size(", 500) + ":v" +
                          UpdateParserRepeat(")", 500)) ==
        "error: Invalid UpdateExpression: The function is not allowed in an update expression; "
        "function: size");
  CHECK(UpdateParserParse("SET a = " + UpdateParserRepeat("if_not_exists(a, ", 200) + ":v" +
                          UpdateParserRepeat(")", 200))
            .starts_with("error: Invalid UpdateExpression: Syntax error"));
  // 300 actions of one + each: 300 operators; the count stops at 301.
  std::string many = "SET a0=b+:v";
  for (int i = 1; i < 300; ++i) many += ",a" + std::to_string(i) + "=b+:v";
  CHECK(UpdateParserParse(many) == "ok: 300");
  CHECK(UpdateParserParse(many + ",z=b+:v,y=b-:v") ==
        "error: Invalid UpdateExpression: The expression contains too many operators; operator "
        "count: 301");
}

}  // namespace
}  // namespace ddbd
