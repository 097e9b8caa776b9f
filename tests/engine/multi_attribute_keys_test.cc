// Global indexes with multi-attribute keys: every key condition DynamoDB accepts selects exactly
// the items a brute-force filter over the index's order selects, and the refusals come in
// DynamoDB's order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <tuple>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"
#include "engine/model/number.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

// Items keyed by id, indexed by (x: S, y: NumberOf) then sorted by (a: S, b: NumberOf).
struct MultiAttributeKeysFixture {
  ManualClock clock;
  Engine engine{{}, clock};
  struct Row {
    std::string x;
    int64_t y;
    std::string a;
    int64_t b;
    int id;
    std::string table_key;  // entries with equal index keys order by these bytes
  };
  std::vector<Row> rows;

  MultiAttributeKeysFixture() {
    CreateTableArgs args;
    args.table_name = "T";
    args.attribute_definitions = {{"id", ScalarAttributeType::kN},
                                  {"x", ScalarAttributeType::kS},
                                  {"y", ScalarAttributeType::kN},
                                  {"a", ScalarAttributeType::kS},
                                  {"b", ScalarAttributeType::kN}};
    args.key_schema = {{"id", KeyType::kHash}};
    args.billing_mode = BillingMode::kPayPerRequest;
    args.global_secondary_indexes = {{"multi",
                                      {{"x", KeyType::kHash},
                                       {"y", KeyType::kHash},
                                       {"a", KeyType::kRange},
                                       {"b", KeyType::kRange}},
                                      {},
                                      std::nullopt,
                                      std::nullopt}};
    REQUIRE(engine.CreateTable(args).ok());
    std::mt19937 random(7);
    // Short strings over a small alphabet (with a prefix relation: "a" < "aa" < "ab") and small
    // numbers of both signs make many ties and neighbours.
    const std::vector<std::string> strings = {"", "a", "aa", "ab", "b", "ba"};
    for (int id = 0; id < 400; ++id) {
      Row row{id % 2 ? "p" : "q",
              id % 3 == 0 ? -1 : 1,
              strings[1 + random() % (strings.size() - 1)],
              static_cast<int64_t>(random() % 9) - 4,
              id,
              EncodeTableKey(NumberOf(id), nullptr)};
      Item item = {{"id", NumberOf(id)}, {"x", S(row.x)}, {"y", NumberOf(row.y)}, {"a", S(row.a)}};
      if (id % 17 != 0) {
        item.emplace_back("b", NumberOf(row.b));
        rows.push_back(row);
      }  // else: no b, so not in the index
      REQUIRE(testing::Put(engine, "T", std::move(item)).ok());
    }
  }

  Result<ReadPage> Query(std::vector<KeyTerm> terms, bool forward = true) {
    QueryArgs args;
    args.table_name = "T";
    args.read.index_name = "multi";
    args.key_terms = std::move(terms);
    args.scan_index_forward = forward;
    return engine.Query(args);
  }

  std::vector<int> Ids(std::vector<KeyTerm> terms, bool forward = true) {
    auto page = Query(std::move(terms), forward);
    REQUIRE(page.ok());
    std::vector<int> ids;
    for (const std::string_view blob : page.value().item_blobs) {
      ids.push_back(std::stoi(FindAttribute(DecodeItem(blob), "id")->scalar));
    }
    return ids;
  }

  // The ids of partition (x, y) whose row passes `keep`, in index order: a, then b, then the
  // table key bytes.
  template <typename Keep>
  std::vector<int> Expected(const std::string& x, int64_t y, Keep keep, bool forward = true) {
    std::vector<Row> selected;
    for (const Row& row : rows) {
      if (row.x == x && row.y == y && keep(row)) selected.push_back(row);
    }
    std::sort(selected.begin(), selected.end(), [](const Row& l, const Row& r) {
      return std::tie(l.a, l.b, l.table_key) < std::tie(r.a, r.b, r.table_key);
    });
    std::vector<int> ids;
    for (const Row& row : selected) ids.push_back(row.id);
    if (!forward) std::reverse(ids.begin(), ids.end());
    return ids;
  }
};

using Op = KeyTerm::Op;

KeyTerm Term(std::string name, Op op, std::vector<AttributeValue> values) {
  return {std::move(name), op, std::move(values)};
}

TEST_CASE("Multi-attribute keys select what a filter over the index order selects") {
  MultiAttributeKeysFixture f;
  for (const auto& [x, y] : {std::pair<std::string, int64_t>{"p", 1}, {"q", -1}, {"p", -1}}) {
    const std::vector<KeyTerm> partition = {Term("x", Op::kEq, {S(x)}),
                                            Term("y", Op::kEq, {NumberOf(y)})};
    for (const bool forward : {true, false}) {
      CHECK(f.Ids(partition, forward) == f.Expected(
                                             x, y, [](auto&) { return true; }, forward));
    }
    for (const std::string a : {"a", "aa", "ab", "b", "c"}) {
      auto with = [&](KeyTerm term) {
        std::vector<KeyTerm> terms = partition;
        terms.push_back(std::move(term));
        return terms;
      };
      CHECK(f.Ids(with(Term("a", Op::kLt, {S(a)}))) ==
            f.Expected(x, y, [&](auto& r) { return r.a < a; }));
      CHECK(f.Ids(with(Term("a", Op::kGe, {S(a)})), false) ==
            f.Expected(
                x, y, [&](auto& r) { return r.a >= a; }, false));
      CHECK(f.Ids(with(Term("a", Op::kBeginsWith, {S(a)}))) ==
            f.Expected(x, y, [&](auto& r) { return r.a.rfind(a, 0) == 0; }));
      for (int64_t b = -5; b <= 5; ++b) {
        std::vector<KeyTerm> on_a = with(Term("a", Op::kEq, {S(a)}));
        auto on_b = [&](KeyTerm term) {
          std::vector<KeyTerm> terms = on_a;
          terms.push_back(std::move(term));
          return terms;
        };
        CHECK(f.Ids(on_b(Term("b", Op::kEq, {NumberOf(b)}))) ==
              f.Expected(x, y, [&](auto& r) { return r.a == a && r.b == b; }));
        CHECK(f.Ids(on_b(Term("b", Op::kLe, {NumberOf(b)}))) ==
              f.Expected(x, y, [&](auto& r) { return r.a == a && r.b <= b; }));
        CHECK(f.Ids(on_b(Term("b", Op::kGt, {NumberOf(b)})), false) ==
              f.Expected(
                  x, y, [&](auto& r) { return r.a == a && r.b > b; }, false));
        CHECK(f.Ids(on_b(Term("b", Op::kBetween, {NumberOf(b), NumberOf(b + 2)}))) ==
              f.Expected(x, y, [&](auto& r) { return r.a == a && r.b >= b && r.b <= b + 2; }));
      }
    }
  }
}

TEST_CASE("Multi-attribute key conditions are refused in DynamoDB's order") {
  MultiAttributeKeysFixture f;
  auto message = [&](std::vector<KeyTerm> terms) {
    auto page = f.Query(std::move(terms));
    REQUIRE_FALSE(page.ok());
    return page.error().message();
  };
  // Every partition attribute without an equality is named first, whatever else is wrong
  // (behaviours-to-match E1; this first held DynamoDB's texts for a one-attribute key).
  CHECK(message({Term("x", Op::kGt, {S("p")}), Term("b", Op::kEq, {NumberOf(1)})}) ==
        "HASH key attributes x, y must have equality conditions specified in the query");
  CHECK(message({Term("x", Op::kEq, {S("p")}), Term("y", Op::kGt, {NumberOf(1)})}) ==
        "HASH key attributes y must have equality conditions specified in the query");
  CHECK(message({Term("x", Op::kEq, {S("p")}), Term("y", Op::kEq, {NumberOf(1)}),
                 Term("id", Op::kEq, {NumberOf(1)})}) == "Query key condition not supported");
  // Types before the order of the sort conditions.
  CHECK(message({Term("x", Op::kEq, {S("p")}), Term("y", Op::kEq, {NumberOf(1)}),
                 Term("b", Op::kEq, {S("1")})}) ==
        "One or more parameter values were invalid: Condition parameter type does not match "
        "schema type");
  CHECK(message({Term("x", Op::kEq, {S("p")}), Term("y", Op::kEq, {NumberOf(1)}),
                 Term("b", Op::kEq, {NumberOf(1)})}) ==
        "RANGE key attributes a must have equality conditions specified in the query because a "
        "condition is present on key attribute b");
  CHECK(message({Term("x", Op::kEq, {S("p")}), Term("y", Op::kEq, {NumberOf(1)}),
                 Term("a", Op::kBeginsWith, {S("a")}), Term("b", Op::kEq, {NumberOf(1)})}) ==
        "RANGE key attributes a must have equality conditions specified in the query because a "
        "condition is present on key attribute b");
}

TEST_CASE("A global index key has one to four HASH attributes, then at most four RANGE") {
  ManualClock clock;
  Engine engine{{}, clock};
  int tables = 0;
  auto create = [&](std::vector<KeySchemaElement> key) {
    CreateTableArgs args;
    args.table_name = "K" + std::to_string(++tables);
    args.key_schema = {{"id", KeyType::kHash}};
    args.attribute_definitions = {{"id", ScalarAttributeType::kS}};
    for (const KeySchemaElement& element : key) {  // each attribute defined once
      const bool defined = std::any_of(
          args.attribute_definitions.begin(), args.attribute_definitions.end(),
          [&](const AttributeDefinition& d) { return d.attribute_name == element.attribute_name; });
      if (!defined) {
        args.attribute_definitions.push_back({element.attribute_name, ScalarAttributeType::kS});
      }
    }
    args.billing_mode = BillingMode::kPayPerRequest;
    args.global_secondary_indexes = {{"g", std::move(key), {}, std::nullopt, std::nullopt}};
    auto created = engine.CreateTable(args);
    return created.ok() ? std::string() : created.error().message();
  };
  const KeyType H = KeyType::kHash;
  const KeyType R = KeyType::kRange;
  CHECK(create({{"a", H}, {"b", H}, {"c", H}, {"d", H}, {"e", R}, {"f", R}, {"g", R}, {"h", R}})
            .empty());
  CHECK(create({{"a", H}, {"b", H}, {"c", H}, {"d", H}, {"e", H}}) ==
        "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed "
        "number of HASH key attributes");
  CHECK(create({{"a", H}, {"b", R}, {"c", R}, {"d", R}, {"e", R}, {"f", R}}) ==
        "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed "
        "number of RANGE key attributes");
  CHECK(create({{"a", H}, {"b", R}, {"c", H}}) ==
        "One or more parameter values were invalid: All HASH key attributes must precede RANGE "
        "key attributes in the KeySchema");
  CHECK(create({{"a", H}, {"b", R}, {"b", R}}) ==
        "The KeySchema contains multiple key attributes with the same name");
}

}  // namespace
}  // namespace ddbd
