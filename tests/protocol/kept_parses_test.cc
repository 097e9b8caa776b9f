// Kept parses bound to another request's names and values (kept_parses.cc) give exactly what
// parsing the text afresh gives: the same tree or actions, or the same error, and the same uses.
#include <rapidjson/document.h>

#include <catch2/catch.hpp>
#include <string>

#include "protocol/expression/condition_parser.h"
#include "protocol/expression/update_parser.h"

namespace ddbd {
namespace {

// A request's ExpressionAttributeNames and ExpressionAttributeValues as JSON.
struct Members {
  const char* names;
  const char* values;
};

struct Decoded {
  rapidjson::Document names_json;
  rapidjson::Document values_json;
  ExpressionNames names;
  ExpressionValues values;
};

Decoded Decode(const Members& members) {
  Decoded decoded;
  decoded.names_json.Parse(members.names);
  decoded.values_json.Parse(members.values);
  // "{}": the member not sent (an empty map is an error of its own).
  const auto given = [](const rapidjson::Document& json) {
    return json.ObjectEmpty() ? nullptr : &json;
  };
  decoded.names = ExpressionNames::Decode(given(decoded.names_json)).value();
  decoded.values = ExpressionValues::Decode(given(decoded.values_json)).value();
  return decoded;
}

std::string UsesOf(const Decoded& decoded) {
  const Status names = decoded.names.CheckAllUsed();
  const Status values = decoded.values.CheckAllUsed();
  return (names.ok() ? std::string("names used") : names.error().message()) + " / " +
         (values.ok() ? std::string("values used") : values.error().message());
}

// Makes a text kept with `first`'s names and values (met twice, then bound once), then checks
// that `other`'s through the kept parse equals `other`'s parsed afresh. `kept_parse` and
// `afresh_parse` parse the text with the names and values given; `bound` counts this thread's
// bindings. Returns the outcome: "ok" or the error's message.
template <typename KeptParse, typename AfreshParse>
std::string KeptThenOther(KeptParse kept_parse, AfreshParse afresh_parse, size_t (*bound)(),
                          const Members& first, const Members& other) {
  for (int i = 0; i < 2; ++i) {
    Decoded request = Decode(first);
    REQUIRE(kept_parse(request.names, request.values).ok());
  }
  Decoded warm = Decode(first);
  const size_t bound_before = bound();
  REQUIRE(kept_parse(warm.names, warm.values).ok());
  REQUIRE(bound() == bound_before + 1);  // the third meeting found it kept

  Decoded kept = Decode(other);
  Decoded afresh = Decode(other);
  auto through_kept = kept_parse(kept.names, kept.values);
  auto parsed = afresh_parse(afresh.names, afresh.values);
  REQUIRE(through_kept.ok() == parsed.ok());
  CHECK(UsesOf(kept) == UsesOf(afresh));
  if (!parsed.ok()) {
    CHECK(through_kept.error().message() == parsed.error().message());
    return parsed.error().message();
  }
  CHECK(through_kept.value() == parsed.value());
  return "ok";
}

std::string KeptThenOther(const std::string& text, const char* kind, const Members& first,
                          const Members& other) {
  return KeptThenOther(
      [&](ExpressionNames& names, ExpressionValues& values) {
        return ParseCondition(text, kind, names, values);
      },
      [&](ExpressionNames& names, ExpressionValues& values) {
        return ParseConditionAfresh(text, kind, names, values);
      },
      ConditionsBoundOnThisThread, first, other);
}

std::string KeptUpdateThenOther(const std::string& text, const Members& first,
                                const Members& other) {
  return KeptThenOther([&](ExpressionNames& names,
                           ExpressionValues& values) { return ParseUpdate(text, names, values); },
                       [&](ExpressionNames& names, ExpressionValues& values) {
                         return ParseUpdateAfresh(text, names, values);
                       },
                       UpdatesBoundOnThisThread, first, other);
}

constexpr Members kNumbers{R"({"#a":"x","#b":"y"})",
                           R"({":v":{"N":"5"},":a":{"N":"1"},":b":{"N":"2"},":w":{"S":"s"}})"};

TEST_CASE("A kept parse bound to other values gives the parse's tree", "[condition]") {
  CHECK(KeptThenOther("#a < :v AND (#b BETWEEN :a AND :b OR NOT begins_with(s, :w))",
                      "ConditionExpression", kNumbers,
                      {R"({"#a":"q","#b":"r"})",
                       R"({":v":{"S":"t"},":a":{"N":"-3"},":b":{"N":"30"},":w":{"B":"AQ=="}})"}) ==
        "ok");
  CHECK(KeptThenOther("a.#a[2].c = :v", "FilterExpression", kNumbers,
                      {R"({"#a":"#b"})", R"({":v":{"L":[{"N":"1"}]}})"}) == "ok");
  CHECK(KeptThenOther("attribute_type(#a, :w) AND size(#b) > :v", "ConditionExpression",
                      {R"({"#a":"x","#b":"y"})", R"({":v":{"N":"5"},":w":{"S":"SS"}})"},
                      {R"({"#a":"x","#b":"y"})", R"({":v":{"N":"7"},":w":{"S":"NULL"}})"}) == "ok");
}

TEST_CASE("A kept parse whose binding fails gives the parse's own error", "[condition]") {
  // Operand types, bounds, distinct paths: checks of the bound values and names.
  CHECK(KeptThenOther("n < :v", "ConditionExpression", kNumbers,
                      {R"({"#a":"x"})", R"({":v":{"BOOL":true}})"}) ==
        "Invalid ConditionExpression: Incorrect operand type for operator or function; operator "
        "or function: <, operand type: BOOL");
  CHECK(KeptThenOther("n BETWEEN :a AND :b", "FilterExpression", kNumbers,
                      {"{}", R"({":a":{"N":"3"},":b":{"N":"2"}})"}) ==
        "Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or "
        "equal to lower bound; lower bound operand: AttributeValue: {N:3}, upper bound operand: "
        "AttributeValue: {N:2}");
  CHECK(KeptThenOther("n BETWEEN :a AND :b", "FilterExpression", kNumbers,
                      {"{}", R"({":a":{"S":"3"},":b":{"N":"2"}})"}) ==
        "Invalid FilterExpression: The BETWEEN operator requires same data type for lower and "
        "upper bounds; lower bound operand: AttributeValue: {S:3}, upper bound operand: "
        "AttributeValue: {N:2}");
  CHECK(
      KeptThenOther("#a = #b", "ConditionExpression", kNumbers, {R"({"#a":"x","#b":"x"})", "{}"}) ==
      "Invalid ConditionExpression: The first operand must be distinct from the remaining "
      "operands for this operator or function; operator: =, first operand: [x]");
  CHECK(KeptThenOther("contains(#a, #b)", "ConditionExpression", kNumbers,
                      {R"({"#a":"x","#b":"x"})", "{}"}) ==
        "Invalid ConditionExpression: The first operand must be distinct from the remaining "
        "operands for this operator or function; operator: contains, first operand: [x]");
  CHECK(KeptThenOther("n IN (:v, #a)", "ConditionExpression", kNumbers,
                      {R"({"#a":"n"})", R"({":v":{"N":"1"}})"}) ==
        "Invalid ConditionExpression: The first operand must be distinct from the remaining "
        "operands for this operator or function; operator: IN, first operand: [n]");
  CHECK(KeptThenOther("begins_with(s, :w)", "ConditionExpression", kNumbers,
                      {"{}", R"({":w":{"N":"1"}})"}) ==
        "Invalid ConditionExpression: Incorrect operand type for operator or function; operator "
        "or function: begins_with, operand type: N");
  constexpr Members kTypeName{"{}", R"({":w":{"S":"N"}})"};
  CHECK(KeptThenOther("attribute_type(s, :w)", "ConditionExpression", kTypeName,
                      {"{}", R"({":w":{"S":"X"}})"}) ==
        "Invalid ConditionExpression: Invalid attribute type name found; type: X, valid types: { "
        "B; NULL; SS; BOOL; L; BS; N; NS; S; M }");
  CHECK(KeptThenOther("attribute_type(s, :w)", "ConditionExpression", kTypeName,
                      {"{}", R"({":w":{"N":"1"}})"}) ==
        "Invalid ConditionExpression: Incorrect operand type for operator or function; operator "
        "or function: attribute_type, operand type: N");
  // Placeholders the other request does not define.
  CHECK(KeptThenOther("n = :v AND m = :w", "ConditionExpression", kNumbers,
                      {"{}", R"({":v":{"N":"1"}})"}) ==
        "Invalid ConditionExpression: An expression attribute value used in expression is not "
        "defined; attribute value: :w");
  CHECK(KeptThenOther("#a = :v", "ConditionExpression", kNumbers,
                      {R"({"#b":"x"})", R"({":v":{"N":"1"}})"}) ==
        "Invalid ConditionExpression: An expression attribute name used in the document path is "
        "not defined; attribute name: #a");
  // A key condition reports an undefined value and a semantic error in the order written.
  CHECK(KeptThenOther("sk BETWEEN :a AND :b AND pk = :v", "KeyConditionExpression", kNumbers,
                      {"{}", R"({":a":{"N":"3"},":b":{"N":"2"}})"}) ==
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater "
        "than or equal to lower bound; lower bound operand: AttributeValue: {N:3}, upper bound "
        "operand: AttributeValue: {N:2}");
  CHECK(KeptThenOther("pk = :v AND sk BETWEEN :a AND :b", "KeyConditionExpression", kNumbers,
                      {"{}", R"({":a":{"N":"3"},":b":{"N":"2"}})"}) ==
        "Invalid KeyConditionExpression: An expression attribute value used in expression is not "
        "defined; attribute value: :v");
}

TEST_CASE("A kept text serves its own kind's messages and is bound only where it can be",
          "[condition]") {
  // Kept as a ConditionExpression, met as a FilterExpression with a bad value: the filter's text.
  CHECK(KeptThenOther("n < :v", "ConditionExpression", kNumbers, kNumbers) == "ok");
  Decoded filter = Decode({"{}", R"({":v":{"BOOL":true}})"});
  auto parsed = ParseCondition("n < :v", "FilterExpression", filter.names, filter.values);
  REQUIRE(!parsed.ok());
  CHECK(parsed.error().message() ==
        "Invalid FilterExpression: Incorrect operand type for operator or function; operator or "
        "function: <, operand type: BOOL");

  // size() of a value is folded into a number by the parse: such a text is never bound.
  const size_t before = ConditionsBoundOnThisThread();
  for (int i = 0; i < 4; ++i) {
    Decoded request = Decode({"{}", R"({":v":{"S":"abc"},":n":{"N":"3"}})"});
    auto sized = ParseCondition("size(:v) = :n AND n = :n", "ConditionExpression", request.names,
                                request.values);
    REQUIRE(sized.ok());
    CHECK(sized.value().children[0].operands[0].value == AttributeValue::Number("3"));
  }
  CHECK(ConditionsBoundOnThisThread() == before);
}

TEST_CASE("A kept update bound to other names and values gives the parse's actions", "[update]") {
  CHECK(KeptUpdateThenOther(
            "SET a = list_append(if_not_exists(#l, :e), :v), #b = (#b + :n) REMOVE #r[2] "
            "ADD c :n DELETE d :s",
            {R"({"#l":"l","#b":"b","#r":"r"})",
             R"({":e":{"L":[]},":v":{"L":[{"N":"1"}]},":n":{"N":"1"},":s":{"SS":["x"]}})"},
            {R"({"#l":"m","#b":"q","#r":"#z"})",
             R"({":e":{"S":"x"},":v":{"N":"2"},":n":{"NS":["7"]},":s":{"BS":["AQ=="]}})"}) == "ok");
}

TEST_CASE("A kept update whose binding fails gives the parse's own error", "[update]") {
  constexpr Members kFirst{R"({"#a":"x","#b":"y"})",
                           R"({":v":{"N":"1"},":w":{"N":"2"},":s":{"SS":["x"]}})"};
  CHECK(KeptUpdateThenOther("SET #a = :v, #b = :w", kFirst,
                            {R"({"#a":"x","#b":"x"})", R"({":v":{"N":"1"},":w":{"N":"2"}})"}) ==
        "Invalid UpdateExpression: Two document paths overlap with each other; must remove or "
        "rewrite one of these paths; path one: [x], path two: [x]");
  CHECK(KeptUpdateThenOther("SET #a[0] = :v, #b.c = :w", kFirst,
                            {R"({"#a":"x","#b":"x"})", R"({":v":{"N":"1"},":w":{"N":"2"}})"}) ==
        "Invalid UpdateExpression: Two document paths conflict with each other; must remove or "
        "rewrite one of these paths; path one: [x, [0]], path two: [x, c]");
  CHECK(KeptUpdateThenOther("ADD n :v", kFirst, {"{}", R"({":v":{"S":"1"}})"}) ==
        "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
        "ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND");
  CHECK(KeptUpdateThenOther("DELETE s :s", kFirst, {"{}", R"({":s":{"N":"1"}})"}) ==
        "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: "
        "DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND");
  // An undefined ADD operand is reported as undefined, not as a type.
  CHECK(KeptUpdateThenOther("ADD n :v SET #a = :w", kFirst,
                            {R"({"#a":"x"})", R"({":w":{"N":"1"}})"}) ==
        "Invalid UpdateExpression: An expression attribute value used in expression is not "
        "defined; attribute value: :v");
  CHECK(KeptUpdateThenOther("SET #a = :v", kFirst, {R"({"#c":"x"})", R"({":v":{"N":"1"}})"}) ==
        "Invalid UpdateExpression: An expression attribute name used in the document path is not "
        "defined; attribute name: #a");
}

}  // namespace
}  // namespace ddbd
