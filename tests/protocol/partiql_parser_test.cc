// PartiQL parsing below the socket (issue 21): every statement form, parameters, literals, and
// DynamoDB's texts for what it refuses, including the depth bounds.
#include <catch2/catch.hpp>
#include <string>

#include "protocol/partiql/parser.h"

namespace ddbd::partiql {
namespace {

using Kind = Statement::Kind;

Statement Parsed(const std::string& text, const std::vector<AttributeValue>& parameters = {}) {
  auto statement = Parse(text, parameters);
  INFO(text);
  REQUIRE(statement.ok());
  return std::move(statement).value();
}

// The error's message, or "ok".
std::string Refusal(const std::string& text, const std::vector<AttributeValue>& parameters = {}) {
  auto statement = Parse(text, parameters);
  return statement.ok() ? "ok" : statement.error().message();
}

const std::string kMalformed = "Statement wasn't well formed, can't be processed: ";

std::string Repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

TEST_CASE("SELECT reads a table or an index with a projection, WHERE and ORDER BY", "[partiql]") {
  Statement all = Parsed(R"(SELECT * FROM "Music")");
  CHECK(all.kind == Kind::kSelect);
  CHECK(all.table_name == "Music");
  CHECK(all.index_name.empty());
  CHECK(all.projection.empty());
  CHECK(!all.where);

  Statement some = Parsed(
      R"(select a, "b c".d[2], e['f'] from "Music"."ByGenre" where a = 'x' and b > 2 order by b desc;)");
  CHECK(some.index_name == "ByGenre");
  REQUIRE(some.projection.size() == 3);
  CHECK(RenderPath(some.projection[1]) == "[b c, d, [2]]");
  CHECK(RenderPath(some.projection[2]) == "[e, f]");
  REQUIRE(some.where);
  CHECK(some.where->kind == Condition::Kind::kAnd);
  CHECK(some.order_by == "b");
  CHECK(some.descending);
  CHECK(Parsed("SELECT * FROM Music").table_name == "Music");
}

TEST_CASE("WHERE takes comparisons, BETWEEN, IN, IS, functions, NOT and parentheses", "[partiql]") {
  const auto where = [](const std::string& condition) {
    return *Parsed("SELECT * FROM t1 WHERE " + condition).where;
  };
  CHECK(where("a <> 1").comparator == Condition::Comparator::kNe);
  CHECK(where("a != 1").comparator == Condition::Comparator::kNe);
  CHECK(where("a BETWEEN 1 AND 5").kind == Condition::Kind::kBetween);
  CHECK(where("a IN [1, 2, 3]").operands.size() == 4);
  CHECK(where("a IN ('x', 'y')").operands.size() == 3);
  CHECK(where("a NOT IN [1]").kind == Condition::Kind::kNot);
  CHECK(where("a IS MISSING").kind == Condition::Kind::kAttributeNotExists);
  CHECK(where("a IS NOT MISSING").kind == Condition::Kind::kAttributeExists);
  CHECK(where("a IS NULL").kind == Condition::Kind::kAttributeType);
  CHECK(where("a IS NOT STRING").kind == Condition::Kind::kNot);
  CHECK(where("begins_with(a, 'x')").kind == Condition::Kind::kBeginsWith);
  CHECK(where("contains(a, 1)").kind == Condition::Kind::kContains);
  CHECK(where("attribute_exists(a.b)").kind == Condition::Kind::kAttributeExists);
  CHECK(where("attribute_type(a, 'N')").kind == Condition::Kind::kAttributeType);
  CHECK(where("size(a) > 3").operands[0].kind == Operand::Kind::kSize);
  CHECK(where("NOT (a = 1 OR b = 2) AND c = 3").kind == Condition::Kind::kAnd);
  CHECK(where("a = 1 OR b = 2 OR c = 3").children.size() == 3);
  CHECK(where(R"("pad" = 'none')").operands[0].path[0].name == "pad");
}

TEST_CASE("Literals become attribute values", "[partiql]") {
  Statement insert = Parsed(
      "INSERT INTO t1 VALUE {'pk': 'a', 'n': -1.50, 'b': true, 'z': null, 'l': [1, 'x'], "
      "'m': {'k': 2e3}, 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>}");
  CHECK(insert.kind == Kind::kInsert);
  REQUIRE(insert.item.size() == 8);
  CHECK(FindAttribute(insert.item, "n")->scalar == "-1.5");
  CHECK(FindAttribute(insert.item, "b")->boolean);
  CHECK(FindAttribute(insert.item, "z")->type == AttributeType::kNull);
  CHECK(FindAttribute(insert.item, "l")->list.size() == 2);
  CHECK(FindAttribute(insert.item, "m")->map[0].second.scalar == "2000");
  CHECK(FindAttribute(insert.item, "ss")->type == AttributeType::kSS);
  CHECK(FindAttribute(insert.item, "ns")->type == AttributeType::kNS);
  CHECK(FindAttribute(Parsed("INSERT INTO t1 VALUE {'it''s': 'don''t'}").item, "it's")->scalar ==
        "don't");
}

TEST_CASE("Parameters replace each question mark in order", "[partiql]") {
  const std::vector<AttributeValue> parameters = {AttributeValue::String("a"),
                                                  AttributeValue::Number("7")};
  Statement select = Parsed("SELECT * FROM t1 WHERE pk = ? AND n > ?", parameters);
  CHECK(select.where->children[1].operands[1].value.scalar == "7");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = ?", parameters) ==
        "Number of parameters in request and statement don't match.");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = ? AND a = ? AND b = ?", parameters) ==
        "Number of parameters in request and statement don't match.");
  AttributeValue item;
  item.type = AttributeType::kM;
  item.map.emplace_back("pk", AttributeValue::String("p"));
  CHECK(Parsed("INSERT INTO t1 VALUE ?", {item}).item.size() == 1);
  CHECK(Refusal("INSERT INTO t1 VALUE ?", {AttributeValue::String("p")}) ==
        "Unsupported format in item expression. Please use struct format {...} to express item "
        "values for insert statement.");
}

TEST_CASE("UPDATE takes SET and REMOVE clauses, functions and RETURNING", "[partiql]") {
  Statement update = Parsed(
      "UPDATE t1 SET a = 1, b = b + 2 REMOVE c SET d = list_append(d, [1]) SET e = "
      "set_add(e, <<'x'>>) SET f = if_not_exists(f, 0) WHERE pk = 'k' RETURNING MODIFIED NEW *");
  CHECK(update.kind == Kind::kUpdate);
  REQUIRE(update.actions.size() == 6);
  CHECK(update.actions[1].value.kind == UpdateValue::Kind::kPlus);
  CHECK(update.actions[2].kind == UpdateAction::Kind::kRemove);
  CHECK(update.actions[3].value.kind == UpdateValue::Kind::kListAppend);
  CHECK(update.actions[4].kind == UpdateAction::Kind::kAdd);
  CHECK(update.actions[5].value.kind == UpdateValue::Kind::kIfNotExists);
  CHECK(update.returning == ReturnValues::kUpdatedNew);
  CHECK(Refusal("UPDATE t1 SET e = set_add(x, <<'a'>>) WHERE pk = 'k'") ==
        "The first argument to SET_ADD must equal the assignment value at 1:19:7");
  CHECK(Refusal("UPDATE t1 SET e = set_delete(e, 'a') WHERE pk = 'k'") ==
        "The second argument to SET_DELETE must be a value with type SET at 1:30:1");
  CHECK(Refusal("UPDATE t1 ADD n 1 WHERE pk = 'k'") ==
        "Only SET and REMOVE are supported in update expressions at this time");
  CHECK(Refusal("UPDATE t1 SET a = 1") ==
        "Where clause does not contain a mandatory equality on all key attributes");
  CHECK(Refusal("UPDATE t1 SET a = 1 WHERE pk = 'k' RETURNING ALL OLD") ==
        "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
}

TEST_CASE("FROM-first UPDATE is UPDATE written WHERE first", "[partiql]") {
  Statement update =
      Parsed("from \"t1\" where pk = ? and n > 1 set a = ? remove b returning all new *",
             {AttributeValue::String("k"), AttributeValue::Number("2")});
  CHECK(update.kind == Kind::kUpdate);
  CHECK(update.table_name == "t1");
  REQUIRE(update.actions.size() == 2);
  CHECK(update.actions[0].value.operand.value.scalar == "2");
  CHECK(update.actions[1].kind == UpdateAction::Kind::kRemove);
  CHECK(update.where.has_value());
  CHECK(update.returning == ReturnValues::kAllNew);
  CHECK(Refusal("FROM t1 SET a = 1") == kMalformed + "Unexpected token after expression");
  CHECK(Refusal("FROM t1 WHERE pk = 'k'") == kMalformed + "Unexpected term");
}

TEST_CASE("DELETE takes only RETURNING ALL OLD *, INSERT none", "[partiql]") {
  CHECK(Parsed("DELETE FROM t1 WHERE pk = 'k' RETURNING ALL OLD *").returning ==
        ReturnValues::kAllOld);
  CHECK(Refusal("DELETE FROM t1 WHERE pk = 'k' RETURNING MODIFIED OLD *") ==
        "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed "
        "in DELETE statements.");
  CHECK(Refusal("DELETE FROM t1 WHERE pk = 'k' RETURNING ALL NEW *") ==
        "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in "
        "DELETE statements.");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 'a'} RETURNING ALL OLD *") ==
        "RETURNING is not supported in INSERT");
  CHECK(Refusal("INSERT INTO t1 VALUE <<{'pk': 'a'}, {'pk': 'b'}>>") ==
        "Unsupported operation: Inserting multiple items in a single statement is not "
        "supported, use \"INSERT INTO tableName VALUE item\" instead");
}

TEST_CASE("EXISTS wraps a SELECT", "[partiql]") {
  Statement exists = Parsed("EXISTS(SELECT * FROM t1 WHERE pk = 'a' AND n > 1)");
  CHECK(exists.kind == Kind::kExists);
  CHECK(exists.table_name == "t1");
  CHECK(exists.where);
}

TEST_CASE("Syntax errors are worded as DynamoDB words them", "[partiql]") {
  CHECK(Refusal("SLECT * FROM t1") == kMalformed + "Expected data manipulation");
  CHECK(Refusal("") == kMalformed + "Expected data manipulation");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1 foo") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1 e5") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1)") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("SELECT * FROM t1; SELECT * FROM t1") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("DELETE FROM t1 WHERE pk = 1 ORDER BY pk") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("SELECT * FROM t1 WHERE") == kMalformed + "Unexpected term");
  CHECK(Refusal("SELECT * FROM t1 WHERE;") == kMalformed + "Unexpected term");
  CHECK(Refusal("SELECT * FROM t1 WHERE NOT") == kMalformed + "Unexpected term");
  CHECK(Refusal("SELECT * FROM t1 WHERE (") == kMalformed + "Unexpected term");
  CHECK(Refusal("SELECT * FROM") == kMalformed + "Unexpected term");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 'a' AND") ==
        kMalformed + "Missing right-hand side expression of infix operator");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 'a' OR") ==
        kMalformed + "Missing right-hand side expression of infix operator");
  CHECK(Refusal("SELECT * FROM t1 WHERE ORDER BY pk") == kMalformed + "Unexpected keyword");
  CHECK(Refusal("SELECT * FROM t1 WHERE pad = 'none'") == kMalformed + "Unexpected keyword");
  CHECK(Refusal("SELECT * FROM t1 WHERE IS NULL") == kMalformed + "Unexpected operator");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = LIKE") == kMalformed + "Unexpected operator");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 'a' AND x IS FOO") ==
        kMalformed + "Expected type name");
  CHECK(Refusal("DELETE FROM") == kMalformed + "Expected identifier for simple path");
  CHECK(Refusal("DELETE FROM WHERE pk = 'a'") ==
        kMalformed + "Expected identifier for simple path");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1 # note") == kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1 /* note") == kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 'open") == kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1e2147483648") == kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1.5e-2147483647") == kMalformed);
  CHECK(Refusal("SELECT * -- all\nFROM t1 /* the table */ WHERE pk = 1;") == "ok");
}

TEST_CASE("Aliases, stars beside names and MISSING outside IS are refused", "[partiql]") {
  CHECK(Refusal("SELECT * FROM t1 t WHERE pk = 'x'") == "Aliasing is not supported");
  CHECK(Refusal("SELECT * FROM t1 AS t WHERE pk = 'x'") == "Aliasing is not supported");
  CHECK(Refusal("UPDATE t1 t SET a = 3 WHERE pk = 'x'") == "Aliasing is not supported");
  CHECK(Refusal("DELETE FROM t1 t WHERE pk = 'x'") == "Aliasing is not supported");
  CHECK(Refusal("INSERT INTO t1 t VALUE {'pk': 'x'}") ==
        kMalformed + "Unexpected token after expression");
  CHECK(Refusal("SELECT *, a FROM t1") ==
        "Other attributes should not be present in the projection when '*' is used.");
  CHECK(Refusal("SELECT * FROM t1 WHERE a = MISSING") ==
        "MISSING must be compared using IS operator");
  CHECK(Refusal("SELECT * FROM t1 WHERE nope(a)") == "Unrecognized function: nope at 1:24:4");
  // Positions count characters, lines from 1.
  CHECK(Refusal("SELECT * FROM t1\nWHERE \"é\" = 'é' AND NoPe(a)") ==
        "Unrecognized function: nope at 2:21:4");
}

TEST_CASE("Number literals follow DynamoDB's number rules, naming their place", "[partiql]") {
  const std::string overflow =
      "Number overflow. Attempting to store a number with magnitude larger than supported range";
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1e126") == overflow + " under root");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 1e-131") ==
        "Number underflow. Attempting to store a number with magnitude smaller than supported "
        "range under root");
  CHECK(Refusal("SELECT * FROM t1 WHERE pk = 123456789012345678901234567890123456789") ==
        "Attempting to store more than 38 significant digits in a Number under root");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1e126}") == overflow + " under root");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 'm': {'x': 1e126}}") == overflow + " under root.x");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 'l': [1, 1e126]}") == overflow + " under root[1]");
}

TEST_CASE("Bags are sets of one type, never empty or repeated", "[partiql]") {
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 's': <<>>}") == "Empty bags are not supported");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 's': <<1, 'a'>>}") ==
        "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 's': <<1, 1.0>>}") ==
        "Input collection contains duplicates");
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 'pk': 2}") ==
        "Duplicate keys in tuple. Key: pk under root");
}

TEST_CASE("Nesting is bounded: no input exhausts the stack", "[partiql]") {
  const std::string nested_list = Repeat("[", 33) + "1" + Repeat("]", 33);
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 'l': " + nested_list + "}") ==
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
        "beyond supported limit");
  const std::string within = Repeat("[", 31) + "1" + Repeat("]", 31);
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': 1, 'l': " + within + "}") == "ok");
  CHECK(Refusal("SELECT * FROM t1 WHERE " + Repeat("(", 64) + "a = 1" + Repeat(")", 64)) == "ok");
  CHECK(Refusal("SELECT * FROM t1 WHERE " + Repeat("(", 65) + "a = 1" + Repeat(")", 65)) ==
        kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE " + Repeat("NOT ", 64) + "a = 1") == "ok");
  CHECK(Refusal("SELECT a" + Repeat(".a", 31) + " FROM t1") == "ok");
  CHECK(Refusal("SELECT a" + Repeat(".a", 32) + " FROM t1") ==
        "The document path has too many nesting levels; nesting levels: 33");
  CHECK(Refusal("SELECT * FROM t1 WHERE " + Repeat("(", 100000) + "a = 1") == kMalformed);
  CHECK(Refusal("SELECT * FROM t1 WHERE " + Repeat("NOT ", 100000) + "a = 1") == kMalformed);
  CHECK(Refusal("INSERT INTO t1 VALUE {'pk': " + Repeat("{'a': ", 100000)) ==
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
        "beyond supported limit");
}

}  // namespace
}  // namespace ddbd::partiql
