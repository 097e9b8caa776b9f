#include <catch2/catch.hpp>
#include <set>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/model/number.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

struct ReadOperationsFixture {
  ManualClock clock;
  Engine engine{{}, clock};

  explicit ReadOperationsFixture(ScalarAttributeType sort_type) {
    CreateTableArgs args;
    args.table_name = "Events";
    args.attribute_definitions = {{"pk", ScalarAttributeType::kS}, {"sk", sort_type}};
    args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    args.billing_mode = BillingMode::kPayPerRequest;
    REQUIRE(engine.CreateTable(args).ok());
  }

  void Put(const std::string& pk, AttributeValue sk) {
    REQUIRE(
        testing::Put(engine, "Events", {{"pk", AttributeValue::String(pk)}, {"sk", std::move(sk)}})
            .ok());
  }

  std::vector<std::string> SortKeys(std::vector<KeyTerm> extra, bool forward = true,
                                    int64_t limit = 0, std::optional<Item> start = std::nullopt) {
    QueryArgs args;
    args.table_name = "Events";
    args.key_terms = {{"pk", KeyTerm::Op::kEq, {AttributeValue::String("p")}}};
    for (KeyTerm& term : extra) args.key_terms.push_back(std::move(term));
    args.scan_index_forward = forward;
    args.read.limit = limit;
    args.read.exclusive_start_key = std::move(start);
    auto page = engine.Query(args);
    REQUIRE(page.ok());
    std::vector<std::string> keys;
    for (const std::string_view blob : page.value().item_blobs) {
      const Item item = DecodeItem(blob);
      keys.push_back(FindAttribute(item, "sk")->scalar);
    }
    return keys;
  }
};

TEST_CASE("Sort-key ranges select exactly the matching items, both ways") {
  ReadOperationsFixture f(ScalarAttributeType::kN);
  for (const char* n : {"-10", "-1.5", "0", "2", "3", "30"}) f.Put("p", NumberOf(n));
  f.Put("q", NumberOf("1"));  // another partition stays out
  using Op = KeyTerm::Op;
  CHECK(f.SortKeys({}) == std::vector<std::string>{"-10", "-1.5", "0", "2", "3", "30"});
  CHECK(f.SortKeys({}, false) == std::vector<std::string>{"30", "3", "2", "0", "-1.5", "-10"});
  CHECK(f.SortKeys({{"sk", Op::kLt, {NumberOf("0")}}}) == std::vector<std::string>{"-10", "-1.5"});
  CHECK(f.SortKeys({{"sk", Op::kLe, {NumberOf("0")}}}) ==
        std::vector<std::string>{"-10", "-1.5", "0"});
  CHECK(f.SortKeys({{"sk", Op::kGt, {NumberOf("2")}}}, false) ==
        std::vector<std::string>{"30", "3"});
  CHECK(f.SortKeys({{"sk", Op::kGe, {NumberOf("2")}}}) == std::vector<std::string>{"2", "3", "30"});
  CHECK(f.SortKeys({{"sk", Op::kBetween, {NumberOf("-1.5"), NumberOf("3")}}}) ==
        std::vector<std::string>{"-1.5", "0", "2", "3"});
  CHECK(f.SortKeys({{"sk", Op::kEq, {NumberOf("2.0")}}}) == std::vector<std::string>{"2"});
}

TEST_CASE("begins_with covers prefixes that end in 0xFF and embedded NULs") {
  ReadOperationsFixture f(ScalarAttributeType::kS);
  using std::string_literals::operator""s;
  for (std::string s : {"a"s, "a\xff"s, "a\xff\xff"s, "a\xffz"s, "b"s, "a\0x"s, "ab"s})
    f.Put("p", S(s));
  CHECK(f.SortKeys({{"sk", KeyTerm::Op::kBeginsWith, {S("a\xff")}}}) ==
        std::vector<std::string>{"a\xff", "a\xffz", "a\xff\xff"});
  CHECK(f.SortKeys({{"sk", KeyTerm::Op::kBeginsWith, {S("a")}}}).size() == 6);
}

TEST_CASE("Pages resume after the last evaluated key in either direction") {
  ReadOperationsFixture f(ScalarAttributeType::kN);
  for (int i = 0; i < 10; ++i) f.Put("p", NumberOf(std::to_string(i).c_str()));
  Item start = {{"pk", S("p")}, {"sk", NumberOf("4")}};
  CHECK(f.SortKeys({}, true, 3, start) == std::vector<std::string>{"5", "6", "7"});
  CHECK(f.SortKeys({}, false, 3, start) == std::vector<std::string>{"3", "2", "1"});
  QueryArgs args;
  args.table_name = "Events";
  args.key_terms = {{"pk", KeyTerm::Op::kEq, {S("p")}}};
  args.read.limit = 10;  // exactly the partition: DynamoDB still says where it stopped
  CHECK(f.engine.Query(args).value().last_evaluated_key.has_value());
  args.read.limit = 11;
  CHECK_FALSE(f.engine.Query(args).value().last_evaluated_key.has_value());
}

TEST_CASE("Scan segments are disjoint and cover the table for any segment count") {
  ReadOperationsFixture f(ScalarAttributeType::kN);
  for (int i = 0; i < 300; ++i) f.Put("p" + std::to_string(i), NumberOf("1"));
  for (int64_t total : {1, 2, 3, 16, 1000}) {
    std::multiset<std::string> seen;
    for (int64_t segment = 0; segment < total; ++segment) {
      ScanArgs args;
      args.table_name = "Events";
      args.segment = segment;
      args.total_segments = total;
      const ReadPage page = f.engine.Scan(args).value();
      for (const std::string_view blob : page.item_blobs) {
        seen.insert(FindAttribute(DecodeItem(blob), "pk")->scalar);
      }
    }
    INFO("TotalSegments " << total);
    CHECK(seen.size() == 300);
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 300);
  }
}

}  // namespace
}  // namespace ddbd
