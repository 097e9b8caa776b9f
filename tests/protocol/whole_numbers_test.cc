// SearchVectors' integers as DynamoDB's newer front end reads them (issue 41): a fraction is
// refused with serde's words and position; integers, other members and other operations pass.
#include "protocol/whole_numbers.h"

#include <catch2/catch.hpp>

namespace ddbd {
namespace {

TEST_CASE("A fraction where SearchVectors' TopK goes is refused with its position") {
  CHECK(FractionWhereIntegerGoes("SearchVectors", R"({"TopK":3.5})") ==
        "invalid type: floating point `3.5`, expected i32 at line 1 column 11");
  CHECK(FractionWhereIntegerGoes("SearchVectors", "{\"a\": 1,\n \"TopK\" : -2.0e0 }") ==
        "invalid type: floating point `-2`, expected i32 at line 2 column 16");
  CHECK(FractionWhereIntegerGoes("SearchVectors", R"({"TopK":0.1})") ==
        "invalid type: floating point `0.1`, expected i32 at line 1 column 11");
  // Read as serde reads, up to the number: what follows is not looked at (the dispatcher answers
  // a body that is not JSON before this).
  CHECK(FractionWhereIntegerGoes("SearchVectors", R"({"TopK":3.5)"));
}

TEST_CASE("Integers, other members, nested TopKs and other operations pass") {
  CHECK_FALSE(FractionWhereIntegerGoes("SearchVectors", R"({"TopK":3})"));
  CHECK_FALSE(FractionWhereIntegerGoes("SearchVectors", R"({"Other":3.5,"TopK":3})"));
  CHECK_FALSE(FractionWhereIntegerGoes("SearchVectors", R"({"M":{"TopK":3.5},"TopK":3})"));
  CHECK_FALSE(FractionWhereIntegerGoes("SearchVectors", R"({"L":[{"TopK":3.5}]})"));
  CHECK_FALSE(FractionWhereIntegerGoes("Query", R"({"TopK":3.5,"Limit":2.5})"));
  CHECK_FALSE(FractionWhereIntegerGoes("SearchVectors", ""));
}

}  // namespace
}  // namespace ddbd
