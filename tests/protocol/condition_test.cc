// Condition expressions end to end below the socket: parse (protocol) then evaluate (engine).
#include "engine/expression/condition.h"

#include <rapidjson/document.h>

#include <catch2/catch.hpp>
#include <string>

#include "protocol/attribute_value_json.h"
#include "protocol/expression/condition_parser.h"

namespace ddbd {
namespace {

// The item every truth-table row is evaluated against.
constexpr const char* kItem =
    R"({"pk":{"S":"user#1"},"n":{"N":"10"},"s":{"S":"hello"},"b":{"B":"AQID"},"t":{"BOOL":true},)"
    R"("z":{"NULL":true},"ss":{"SS":["red","blue"]},"ns":{"NS":["1","2.5"]},)"
    R"("l":{"L":[{"S":"x"},{"N":"3"}]},"m":{"M":{"nested":{"S":"deep"}}}})";

constexpr const char* kValues =
    R"({":ten":{"N":"10"},":nine":{"N":"9.0"},":eleven":{"N":"11"},":hello":{"S":"hello"},)"
    R"(":he":{"S":"he"},":red":{"S":"red"},":two5":{"N":"2.5"},":x":{"S":"x"},":b12":{"B":"AQI="},)"
    R"(":tS":{"S":"S"},":tSS":{"S":"SS"},":tNULL":{"S":"NULL"},":three":{"N":"3"},":deep":{"S":"deep"}})";

// Parses and evaluates `expression` against kItem; "error: ..." when it does not parse.
std::string Run(const std::string& expression) {
  rapidjson::Document item_json;
  item_json.Parse(kItem);
  AttributeDecoder decoder;
  const Item item = decoder.DecodeItem(&item_json);
  rapidjson::Document values_json;
  values_json.Parse(kValues);
  rapidjson::Document names_json;
  names_json.Parse(R"({"#n":"n","#m":"m"})");
  auto names = ExpressionNames::Decode(&names_json);
  auto values = ExpressionValues::Decode(&values_json);
  auto condition = ParseCondition(expression, "ConditionExpression", names.value(), values.value());
  if (!condition.ok()) return "error: " + condition.error().message();
  return Evaluate(condition.value(), item) ? "true" : "false";
}

TEST_CASE("Comparisons: numbers by value, mismatched types false, <> true on missing") {
  CHECK(Run("n = :ten") == "true");
  CHECK(Run("#n > :nine") == "true");
  CHECK(Run("n >= :ten AND n <= :ten") == "true");
  CHECK(Run("n < :nine") == "false");
  CHECK(Run("s = :ten") == "false");  // S vs N
  CHECK(Run("s <> :ten") == "true");
  CHECK(Run("absent = :ten") == "false");
  CHECK(Run("absent <> :ten") == "true");
  CHECK(Run("absent < :ten") == "false");
  CHECK(Run("s > :he") == "true");   // strings by bytes
  CHECK(Run("b > :b12") == "true");  // binary by unsigned bytes
  CHECK(Run("l[1] = :three AND m.nested = :deep AND #m.nested = :deep") == "true");
  CHECK(Run("l[5] = :three") == "false");
}

TEST_CASE("BETWEEN, IN, AND/OR/NOT precedence and parentheses") {
  CHECK(Run("n BETWEEN :nine AND :eleven") == "true");
  CHECK(Run("n BETWEEN :eleven AND :eleven") == "false");
  CHECK(Run("n IN (:nine, :ten)") == "true");
  CHECK(Run("s IN (:he, :red)") == "false");
  CHECK(Run("n = :nine OR n = :ten AND s = :hello") == "true");  // AND binds tighter
  CHECK(Run("(n = :nine OR n = :ten) AND s = :he") == "false");
  CHECK(Run("NOT n = :nine") == "true");
  CHECK(Run("NOT (n = :ten OR s = :he)") == "false");
}

TEST_CASE("Functions over every type") {
  CHECK(Run("attribute_exists(m.nested)") == "true");
  CHECK(Run("attribute_not_exists(m.gone)") == "true");
  CHECK(Run("attribute_type(s, :tS) AND attribute_type(ss, :tSS) AND attribute_type(z, :tNULL)") ==
        "true");
  CHECK(Run("attribute_type(n, :tS)") == "false");
  CHECK(Run("begins_with(s, :he)") == "true");
  CHECK(Run("begins_with(n, :he)") == "false");
  CHECK(
      Run("contains(s, :he) AND contains(ss, :red) AND contains(ns, :two5) AND contains(l, :x)") ==
      "true");
  CHECK(Run("contains(ss, :he)") == "false");
  CHECK(Run("size(s) = :three") == "false");
  CHECK(Run("size(ss) < :three AND size(l) < :three AND size(m) < :three") == "true");
  CHECK(Run("size(n) = :three") == "false");  // size of a number has no value
}

TEST_CASE("Condition errors carry DynamoDB's texts") {
  CHECK(Run("n = ") ==
        R"(error: Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "= ")");
  CHECK(Run("n == :ten") ==
        R"(error: Invalid ConditionExpression: Syntax error; token: "=", near: "== :ten")");
  CHECK(Run("n") ==
        R"(error: Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "n")");
  CHECK(Run("((n = :ten))") ==
        "error: Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK(Run("foo(n)") ==
        "error: Invalid ConditionExpression: Invalid function name; function: foo");
  CHECK(Run("attribute_exists(n, s)") ==
        "error: Invalid ConditionExpression: Incorrect number of operands for operator or "
        "function; operator or function: attribute_exists, number of operands: 2");
  CHECK(Run("attribute_exists(:ten)") ==
        "error: Invalid ConditionExpression: Operator or function requires a document path; "
        "operator or function: attribute_exists");
  CHECK(Run("begins_with(s, :ten)") ==
        "error: Invalid ConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: begins_with, operand type: N");
  CHECK(Run("size(s)") ==
        R"x(error: Invalid ConditionExpression: Syntax error; token: "<EOF>", near: ")")x");
  CHECK(Run("n = :nope") ==
        "error: Invalid ConditionExpression: An expression attribute value used in expression is "
        "not defined; attribute value: :nope");
  CHECK(Run("name = :ten") ==
        "error: Invalid ConditionExpression: Attribute name is a reserved keyword; reserved "
        "keyword: name");
  CHECK(Run("n = n") ==
        "error: Invalid ConditionExpression: The first operand must be distinct from the "
        "remaining operands for this operator or function; operator: =, first operand: [n]");
  CHECK(Run("n BETWEEN :eleven AND :nine") ==
        "error: Invalid ConditionExpression: The BETWEEN operator requires upper bound to be "
        "greater than or equal to lower bound; lower bound operand: AttributeValue: {N:11}, upper "
        "bound operand: AttributeValue: {N:9}");
  CHECK(Run(std::string(4097, ' ')) ==
        "error: Invalid ConditionExpression: Expression size has exceeded the maximum allowed "
        "size; expression size: 4097");
  CHECK(Run(" ") == "error: Invalid ConditionExpression: The expression can not be empty;");
}

std::string Repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// Functions are operands wherever an operand may stand (issue 15).
TEST_CASE("Functions in operand places, and where they are not allowed", "[condition]") {
  CHECK(Run("size(:hello) > :three") == "true");
  CHECK(Run("size(:ten) > :three") ==
        "error: Invalid ConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: size, operand type: N");
  CHECK(Run("size(size(s)) > :three") ==
        "error: Invalid ConditionExpression: Incorrect operand type for operator or function; "
        "operator or function: size, operand type: N");
  CHECK(Run("attribute_type(:hello, :tS)") == "true");
  CHECK(Run("attribute_type(:ten, :tS)") == "false");
  CHECK(Run("attribute_exists(:ten)") ==
        "error: Invalid ConditionExpression: Operator or function requires a document path; "
        "operator or function: attribute_exists");
  CHECK(Run("dog(n) = :ten") ==
        "error: Invalid ConditionExpression: Invalid function name; function: dog");
  CHECK(Run("n BETWEEN dog(n) AND :ten") ==
        "error: Invalid ConditionExpression: Invalid function name; function: dog");
  CHECK(Run("dog(n)") ==
        "error: Invalid ConditionExpression: Invalid function name; function: dog");
  CHECK(Run("if_not_exists(n, :ten) = :ten") ==
        "error: Invalid ConditionExpression: The function is not allowed in a condition "
        "expression; function: if_not_exists");
  CHECK(Run("n = list_append(l, l)") ==
        "error: Invalid ConditionExpression: The function is not allowed in a condition "
        "expression; function: list_append");
}

TEST_CASE("Names start with a letter, syntax errors quote the tokens around", "[condition]") {
  CHECK(Run("_n = :ten") ==
        R"(error: Invalid ConditionExpression: Syntax error; token: "_", near: "_n")");
  CHECK(Run("n = :ten AND _x = :ten") ==
        R"(error: Invalid ConditionExpression: Syntax error; token: "_", near: "AND _x")");
  CHECK(Run("n_1 = :ten OR #n = :ten") == "true");  // '_' inside a name is fine
}

TEST_CASE("Tokens: the C locale's spaces, letters and digits", "[condition]") {
  CHECK(Run("n\t=\n:ten\rAND\v\fs = :hello") == "true");
  CHECK(Run("l[1] = :three AND Zz9_ <> :ten") == "true");
  // A byte past ASCII is no letter: a symbol of its own, as DynamoDB's syntax error quotes it.
  CHECK(Run("n\xc3 = :ten") ==
        "error: Invalid ConditionExpression: Syntax error; token: \"\xc3\", near: \"n\xc3 =\"");
  // More tokens than the tokenizer reserves room for (16).
  CHECK(Run("n = :ten AND n = :ten AND n = :ten AND n = :ten AND (s = :hello OR n < :nine)") ==
        "true");
}

// Measured against DynamoDB (issue 15): AND, OR and NOT count as operators, parentheses do not,
// and counting stops at the first operator over 300, whatever follows.
TEST_CASE("Operators are counted as DynamoDB counts them", "[condition]") {
  const std::string too_many =
      "error: Invalid ConditionExpression: The expression contains too many operators; operator "
      "count: 301";
  std::string chain = "n < :ten" + Repeat(" AND n < :ten", 149);  // 299 operators
  CHECK(Run(chain) == "false");
  CHECK(Run("n = :ten" + Repeat(" AND n = :ten", 149)) == "true");
  CHECK(Run(chain + " AND n < :ten") == too_many);
  CHECK(Run(chain + " OR n < :ten OR n < :ten") == too_many);
  CHECK(Run(chain + " AND n < :ten ) garbage") == too_many);  // nothing after the 301st is read
  // a<b or (a<b or (...)): 149 levels (299 operators) pass, 454 do not.
  CHECK(Run(Repeat("n < :ten or (", 149) + "n = :ten" + Repeat(")", 149)) == "true");
  CHECK(Run(Repeat("n<s or (", 454) + "n = :ten" + Repeat(")", 454)) == too_many);
  CHECK(Run(Repeat("NOT ", 298) + "n = :ten") == "true");
  CHECK(Run(Repeat("NOT ", 299) + "n = :ten") == "false");
  CHECK(Run(Repeat("NOT ", 1000) + "n = :ten") == too_many);
  CHECK(Run(Repeat("NOT (", 299) + "n = :ten" + Repeat(")", 299)) == "false");
  CHECK(Run(Repeat("n BETWEEN s AND m AND ", 149) + "n<s") == "false");  // 299
  CHECK(Run(Repeat("n BETWEEN s AND m AND ", 150) + "n<s") == too_many);
  CHECK(Run(Repeat("size(s)<n AND ", 100) + "n<s") == too_many);  // size() counts too
}

// The parser keeps its pending operators on the heap: nesting up to the 4 KB limit gets
// DynamoDB's error, never a stack overflow (the server's own test runs it on a 256 KB stack).
TEST_CASE("Deep nesting is an error, not a crash", "[condition]") {
  CHECK(Run(Repeat("(", 2040) + "n = :ten" + Repeat(")", 2040)) ==
        "error: Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK(Run(Repeat("(", 2045) + "n = :ten") ==
        "error: Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \":ten\"");
  CHECK(Run("((n = :ten) AND (s = :hello))") == "true");
  CHECK(Run("NOT ((n = :ten)) ") ==
        "error: Invalid ConditionExpression: The expression has redundant parentheses;");
  CHECK(Run("n = :ten)") ==
        "error: Invalid ConditionExpression: Syntax error; token: \")\", near: \":ten)\"");
  CHECK(Run("n < " + Repeat("f(", 1355) + "n" + Repeat(")", 1355)) ==
        "error: Invalid ConditionExpression: Invalid function name; function: f");
  CHECK(Run("n < " + Repeat("size(", 600) + "n" + Repeat(")", 600)) ==
        "error: Invalid ConditionExpression: Operator or function requires a document path; "
        "operator or function: size");
  CHECK(Run(Repeat("contains(", 400) + "n" + Repeat(")", 400)) ==
        "error: Invalid ConditionExpression: The function is not allowed to be used this way in an "
        "expression; function: contains");
}

}  // namespace
}  // namespace ddbd
