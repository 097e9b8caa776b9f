#include "engine/capacity/capacity.h"

#include <catch2/catch.hpp>

#include "engine/model/attribute_value.h"

namespace ddbd {
namespace {

TEST_CASE("Reads cost one unit per 4 KB, at least one, half when eventually consistent") {
  CHECK(ReadUnits(0, true) == 1.0);  // a missing item still costs
  CHECK(ReadUnits(0, false) == 0.5);
  CHECK(ReadUnits(1, true) == 1.0);
  CHECK(ReadUnits(4096, true) == 1.0);
  CHECK(ReadUnits(4097, true) == 2.0);
  CHECK(ReadUnits(4097, false) == 1.0);
  CHECK(ReadUnits(40800, false) == 5.0);  // 10 items of 4,080 bytes in one Query: 10 x 4 KB
  CHECK(ReadUnits(400 * 1024, true) == 100.0);
}

TEST_CASE("Writes cost one unit per 1 KB, at least one") {
  CHECK(WriteUnits(0) == 1.0);
  CHECK(WriteUnits(1024) == 1.0);
  CHECK(WriteUnits(1025) == 2.0);
  CHECK(WriteUnits(2049) == 3.0);
  CHECK(WriteUnits(400 * 1024) == 400.0);
}

TEST_CASE("A write costs the larger of the item before and after") {
  Committed change;
  change.old_size = 2049;
  change.new_size = 10;
  CHECK(TableWriteUnits(change) == 3.0);
  change.old_size = 0;  // an insert, or a delete of nothing
  change.new_size = 0;
  CHECK(TableWriteUnits(change) == 1.0);
}

TEST_CASE("Index writes cost per changed entry, sized on the projected entry") {
  IndexEntryChange change;
  SECTION("new entry") {
    change.has_entry = true;
    change.new_size = 1025;
    CHECK(IndexWriteUnits(change) == 2.0);
  }
  SECTION("removed entry") {
    change.had_entry = true;
    change.old_size = 100;
    CHECK(IndexWriteUnits(change) == 1.0);
  }
  SECTION("key change: the old entry's delete and the new one's put") {
    change.had_entry = change.has_entry = change.key_changed = true;
    change.old_size = 1500;
    change.new_size = 100;
    CHECK(IndexWriteUnits(change) == 3.0);
  }
  SECTION("projected change under the same key") {
    change.had_entry = change.has_entry = change.item_changed = true;
    change.old_size = 100;
    change.new_size = 1100;
    CHECK(IndexWriteUnits(change) == 2.0);
  }
  SECTION("unchanged entry (identical overwrite, unprojected change)") {
    change.had_entry = change.has_entry = true;
    change.old_size = change.new_size = 3000;
    CHECK(IndexWriteUnits(change) == 0.0);
  }
}

TEST_CASE("Consumed capacity adds per table and leaves untouched indexes out") {
  ConsumedCapacity consumed;
  consumed.table_name = "t";
  consumed.table_units = 1;
  consumed.AddIndex("g", true, 1);
  consumed.AddIndex("l", false, 0);  // cost nothing: not reported
  ConsumedCapacity more;
  more.table_units = 2;
  more.AddIndex("g", true, 2);
  more.AddIndex("l", false, 1);
  consumed.Add(more);
  CHECK(consumed.table_units == 3.0);
  REQUIRE(consumed.global_indexes.size() == 1);
  CHECK(consumed.global_indexes[0].second == 3.0);
  REQUIRE(consumed.local_indexes.size() == 1);
  CHECK(consumed.total() == 7.0);
}

TEST_CASE("Item sizes at the unit boundaries, as DynamoDB counts them") {
  // 'pk' + 'a' + 'd' + filler: 4 bytes of overhead-free naming.
  auto sized = [](size_t filler) {
    return Item{{"pk", AttributeValue::String("a")},
                {"d", AttributeValue::String(std::string(filler, 'x'))}};
  };
  CHECK(WriteUnits(ItemSize(sized(1020))) == 1.0);
  CHECK(WriteUnits(ItemSize(sized(1021))) == 2.0);
  CHECK(ReadUnits(ItemSize(sized(4092)), true) == 1.0);
  CHECK(ReadUnits(ItemSize(sized(4093)), true) == 2.0);
  // Names count in full; numbers by significant digits (measured examples).
  CHECK(ItemSize({{std::string(1025, 'n'), AttributeValue::Boolean(true)}}) == 1026);
  CHECK(ItemSize({{"n", AttributeValue::Number("0.0000001")}}) == 1 + 2);
  CHECK(ItemSize({{"n", AttributeValue::Number("-42")}}) == 1 + 3);
  CHECK(ItemSize({{"n", AttributeValue::Number("1" + std::string(125, '0'))}}) == 1 + 2);
}

}  // namespace
}  // namespace ddbd
