// From PartiQL statements to engine operations (issue 21): which SELECTs are Queries and which
// Scans, what becomes the key range and what the filter, and the key and condition of writes.
#include <catch2/catch.hpp>
#include <string>

#include "protocol/partiql/parser.h"
#include "protocol/partiql/plan.h"

namespace ddbd::partiql {
namespace {

const KeyNames kComposite{{"pk"}, {"sk"}, false};
const KeyNames kHashOnly{{"pk"}, {}, false};

Statement PartiqlPlanParsed(const std::string& text) {
  auto statement = Parse(text, {});
  INFO(text);
  REQUIRE(statement.ok());
  return std::move(statement).value();
}

TEST_CASE("A SELECT with the partition key's equality is a Query", "[partiql]") {
  ReadPlan plan;
  REQUIRE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE 'a' = pk AND 3 < sk AND n = 1"),
                     kComposite, false, plan)
              .ok());
  CHECK(plan.is_query);
  REQUIRE(plan.query.key_terms.size() == 2);
  CHECK(plan.query.key_terms[0].attribute == "pk");
  CHECK(plan.query.key_terms[1].op == KeyTerm::Op::kGt);  // 3 < sk is sk > 3
  REQUIRE(plan.filter);
  CHECK(plan.filter->kind == Condition::Kind::kCompare);  // n = 1 alone
  CHECK(plan.options.filter == &*plan.filter);
  CHECK(plan.options.filter_may_name_keys);
}

TEST_CASE("Sort-key conditions a range cannot express stay in the filter", "[partiql]") {
  ReadPlan plan;
  REQUIRE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk = 'a' AND sk <> 2"), kComposite,
                     false, plan)
              .ok());
  CHECK(plan.is_query);
  CHECK(plan.query.key_terms.size() == 1);
  REQUIRE(plan.filter);
  ReadPlan between;
  REQUIRE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk = 'a' AND sk BETWEEN 1 AND 2 AND "
                                       "begins_with(sk, 'x')"),
                     kComposite, false, between)
              .ok());
  CHECK(between.query.key_terms[1].op == KeyTerm::Op::kBetween);
  CHECK(between.filter->kind == Condition::Kind::kBeginsWith);
}

TEST_CASE("A SELECT without the partition key's equality is a Scan", "[partiql]") {
  for (const char* text :
       {"SELECT * FROM t1", "SELECT * FROM t1 WHERE sk = 1",
        "SELECT * FROM t1 WHERE pk = 'a' OR pk = 'b'", "SELECT * FROM t1 WHERE pk IN ['a', n]",
        "SELECT * FROM t1 WHERE pk > 'a'"}) {
    ReadPlan plan;
    REQUIRE(PlanSelect(PartiqlPlanParsed(text), kComposite, false, plan).ok());
    CHECK_FALSE(plan.is_query);
  }
}

TEST_CASE("pk IN a list of values reads each partition named", "[partiql]") {
  ReadPlan plan;
  REQUIRE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk IN ['b', 'a', 'b'] AND sk > 1"),
                     kComposite, false, plan)
              .ok());
  CHECK(plan.is_query);
  REQUIRE(plan.partitions.size() == 2);  // distinct, in order
  CHECK(plan.partitions[0].scalar == "b");
  CHECK(plan.query.key_terms.size() == 2);
  CHECK_FALSE(plan.filter);
}

TEST_CASE("ORDER BY needs a Query and a key attribute", "[partiql]") {
  ReadPlan plan;
  CHECK(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 ORDER BY sk"), kComposite, false, plan)
            .error()
            .message() == "Must have WHERE clause in the statement when using ORDER BY clause.");
  ReadPlan scan;
  CHECK(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE sk = 1 ORDER BY sk"), kComposite,
                   false, scan)
            .error()
            .message() ==
        "Must have at least one non-optional hash key condition in WHERE clause when using ORDER "
        "BY clause.");
  ReadPlan in;
  CHECK_FALSE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk IN ['a'] ORDER BY sk"),
                         kComposite, false, in)
                  .ok());
  ReadPlan other;
  CHECK(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk = 'a' ORDER BY n"), kComposite,
                   false, other)
            .error()
            .message() ==
        "Variable reference n in ORDER BY clause must be part of the primary key");
  ReadPlan descending;
  REQUIRE(PlanSelect(PartiqlPlanParsed("SELECT * FROM t1 WHERE pk = 'a' ORDER BY sk DESC"),
                     kComposite, false, descending)
              .ok());
  CHECK_FALSE(descending.query.scan_index_forward);
}

TEST_CASE("A consistent read of a global index is refused", "[partiql]") {
  ReadPlan plan;
  const KeyNames global{{"g"}, {}, true};
  CHECK(PlanSelect(PartiqlPlanParsed(R"(SELECT * FROM t1."g1" WHERE g = 1)"), global, true, plan)
            .error()
            .message() == "Strongly consistent read is not supported on Global Secondary Indexes");
}

TEST_CASE("Writes need an equality on every key attribute, once", "[partiql]") {
  auto update = PlanWrite(
      PartiqlPlanParsed("UPDATE t1 SET a = 1 WHERE pk = 'a' AND sk = 1 AND n > 2"), kComposite);
  REQUIRE(update.ok());
  CHECK(update.value().item.size() == 2);
  // attribute_exists(pk) AND n > 2: UPDATE never creates an item.
  CHECK(update.value().condition->kind == Condition::Kind::kAnd);
  CHECK(
      PlanWrite(PartiqlPlanParsed("DELETE FROM t1 WHERE pk = 'a'"), kComposite).error().message() ==
      "Where clause does not contain a mandatory equality on all key attributes");
  CHECK(PlanWrite(PartiqlPlanParsed("DELETE FROM t1 WHERE pk = 'a' OR sk = 1"), kComposite)
            .error()
            .message() ==
        "Where clause does not contain a mandatory equality on all key attributes");
  CHECK(PlanWrite(PartiqlPlanParsed("DELETE FROM t1 WHERE pk = 'a' AND pk = 'b'"), kHashOnly)
            .error()
            .message() ==
        "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported");
  auto plain_delete = PlanWrite(PartiqlPlanParsed("DELETE FROM t1 WHERE pk = 'a'"), kHashOnly);
  REQUIRE(plain_delete.ok());
  CHECK_FALSE(plain_delete.value().condition);
  auto conditional_delete =
      PlanWrite(PartiqlPlanParsed("DELETE FROM t1 WHERE pk = 'a' AND n = 1"), kHashOnly);
  CHECK(conditional_delete.value().condition->kind == Condition::Kind::kOr);
}

TEST_CASE("INSERT needs the key in its item and no item with it", "[partiql]") {
  auto insert =
      PlanWrite(PartiqlPlanParsed("INSERT INTO t1 VALUE {'pk': 'a', 'sk': 1}"), kComposite);
  REQUIRE(insert.ok());
  CHECK(insert.value().condition->kind == Condition::Kind::kAttributeNotExists);
  CHECK(PlanWrite(PartiqlPlanParsed("INSERT INTO t1 VALUE {'pk': 'a'}"), kComposite)
            .error()
            .message() == "Key attribute should be present in the item: Key sk");
  CHECK(PlanWrite(PartiqlPlanParsed(R"(DELETE FROM t1."i1" WHERE pk = 'a')"), kHashOnly)
            .error()
            .message() == "This operation is not supported on an index");
}

}  // namespace
}  // namespace ddbd::partiql
