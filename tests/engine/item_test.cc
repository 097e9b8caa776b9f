#include <catch2/catch.hpp>

#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"
#include "engine/model/number.h"

namespace ddbd {
namespace {

using std::string_literals::operator""s;

AttributeValue List(std::vector<AttributeValue> elements) {
  AttributeValue value;
  value.type = AttributeType::kL;
  value.list = std::move(elements);
  return value;
}

AttributeValue Map(AttributeMap entries) {
  AttributeValue value;
  value.type = AttributeType::kM;
  value.map = std::move(entries);
  return value;
}

AttributeValue Set(AttributeType type, std::vector<std::string> members) {
  AttributeValue value;
  value.type = type;
  value.members = std::move(members);
  return value;
}

TEST_CASE("A map or list may stand at an item's 31st level, not its 32nd") {
  auto wrapped = [](int levels, bool lists) {
    AttributeValue value = AttributeValue::String("x");
    for (int i = 0; i < levels; ++i) value = lists ? List({value}) : Map({{"n", value}});
    return value;
  };
  for (const bool lists : {false, true}) {
    CHECK_FALSE(NestsTooDeep({{"a", wrapped(31, lists)}}));
    CHECK(NestsTooDeep({{"a", AttributeValue::String("x")}, {"b", wrapped(32, lists)}}));
  }
  // An empty map counts as a level of its own.
  AttributeValue empty = Map({});
  for (int i = 0; i < 31; ++i) empty = Map({{"n", empty}});
  CHECK(NestsTooDeep({{"a", empty}}));
}

TEST_CASE("Item size follows DynamoDB's documented rules") {
  // Strings and binary: name + bytes.
  CHECK(ItemSize({{"name", AttributeValue::String("héllo")}}) == 4 + 6);
  CHECK(ItemSize({{"b", AttributeValue::Binary(std::string(10, 'x'))}}) == 1 + 10);
  // Numbers: name + 1 + a byte per two significant digits of the integer part and of the
  // fraction, + 1 if negative (the rule measured against DynamoDB).
  CHECK(ItemSize({{"n", AttributeValue::Number("1" + std::string(125, '0'))}}) == 1 + 2);
  CHECK(ItemSize({{"n", AttributeValue::Number("11111")}}) == 1 + 4);
  CHECK(ItemSize({{"n", AttributeValue::Number("111111")}}) == 1 + 4);
  CHECK(ItemSize({{"n", AttributeValue::Number("1111111")}}) == 1 + 5);
  CHECK(ItemSize({{"n", AttributeValue::Number(std::string(38, '1') + std::string(88, '0'))}}) ==
        1 + 20);
  CHECK(ItemSize({{"n", AttributeValue::Number("-0.00123")}}) == 1 + 4);
  CHECK(ItemSize({{"n", AttributeValue::Number("123.4")}}) == 1 + 4);
  CHECK(ItemSize({{"n", AttributeValue::Number("0")}}) == 1 + 2);
  // BOOL and NULL: name + 1.
  CHECK(ItemSize({{"t", AttributeValue::Boolean(true)}, {"z", AttributeValue::Null()}}) == 4);
  // Lists and maps: name + 3 + (1 + element) per element; map keys count.
  CHECK(ItemSize({{"l", List({})}}) == 1 + 3);
  CHECK(ItemSize({{"l", List({AttributeValue::String("ab"), AttributeValue::Null()})}}) ==
        1 + 3 + (1 + 2) + (1 + 1));
  CHECK(ItemSize({{"m", Map({{"key", AttributeValue::String("v")}})}}) == 1 + 3 + 1 + 3 + 1);
  // Sets: the sum of their members.
  CHECK(ItemSize({{"s", Set(AttributeType::kSS, {"ab", "c"})}}) == 1 + 3);
  CHECK(ItemSize({{"s", Set(AttributeType::kNS, {"12", "1"})}}) == 1 + 2 + 2);
}

TEST_CASE("Items survive encoding to a blob and back, every type") {
  Item item = {
      {"s", AttributeValue::String("text")},
      {"n", AttributeValue::Number("-1.5")},
      {"b", AttributeValue::Binary(std::string("\0\xff", 2))},
      {"t", AttributeValue::Boolean(true)},
      {"f", AttributeValue::Boolean(false)},
      {"z", AttributeValue::Null()},
      {"l", List({AttributeValue::String("x"), List({}), Map({})})},
      {"m", Map({{"inner", Map({{"deep", AttributeValue::Number("1")}})}})},
      {"ss", Set(AttributeType::kSS, {"a", "b"})},
      {"ns", Set(AttributeType::kNS, {"1", "2"})},
      {"bs", Set(AttributeType::kBS, {std::string(200, 'q')})},
      {"", AttributeValue::String(std::string(300, 'y'))},
  };
  CHECK(DecodeItem(EncodeItem(item)) == item);
}

TEST_CASE("Table keys order by partition hash, then partition key, then sort key") {
  const AttributeValue pk = AttributeValue::String("user#1");
  std::vector<std::string> keys;
  for (const char* sort : {"-10", "-2", "-1.5", "0", "0.001", "1", "2", "10", "1E5"}) {
    const AttributeValue value = AttributeValue::Number(Number::Parse(sort).value().ToString());
    keys.push_back(EncodeTableKey(pk, &value));
  }
  for (size_t i = 1; i < keys.size(); ++i) CHECK(keys[i - 1] < keys[i]);
  // Strings sort by UTF-8 bytes, with embedded NULs and prefixes handled.
  auto key = [&](std::string sort) {
    AttributeValue value = AttributeValue::String(std::move(sort));
    return EncodeTableKey(pk, &value);
  };
  CHECK(key("a") < key("a\0"s));
  CHECK(key("a\0"s) < key("a\x01"));
  CHECK(key("a") < key("ab"));
  CHECK(key("Z") < key("a"));
  CHECK(key("z") < key("\xC3\xA9"));  // é after ASCII
  // The hash prefix is stable across runs (stored data and Scan order depend on it).
  CHECK(StablePartitionHash("abc") == StablePartitionHash("abc"));
  CHECK(StablePartitionHash("abc") != StablePartitionHash("abd"));
}

TEST_CASE("The partition prefix of table key bytes is found for every key type") {
  const AttributeValue sort = AttributeValue::String("s\0rt"s);
  std::vector<AttributeValue> partitions = {AttributeValue::String("a\0\x01b"s),
                                            AttributeValue::String(""),
                                            AttributeValue::Binary("\0\xFF\x01"s)};
  for (const char* n : {"0", "5", "-5", "123.45", "-0.001", "1E125", "-1E-125"}) {
    partitions.push_back(AttributeValue::Number(Number::Parse(n).value().ToString()));
  }
  for (const AttributeValue& partition : partitions) {
    const std::string prefix = EncodeTableKey(partition, nullptr);
    CHECK(PartitionPrefixLength(EncodeTableKey(partition, &sort), partition.type) == prefix.size());
    CHECK(PartitionPrefixLength(prefix, partition.type) == prefix.size());
  }
}

TEST_CASE("Projection selects nested paths and packs list elements") {
  Item item = {
      {"a", AttributeValue::String("1")},
      {"l", List({AttributeValue::String("x"), AttributeValue::String("y"),
                  Map({{"k", AttributeValue::String("v")}, {"o", AttributeValue::Null()}})})},
      {"m", Map({{"p", Map({{"q", AttributeValue::Number("2")}})}, {"r", AttributeValue::Null()}})},
  };
  Item projected = ProjectItem(item, {{{"l", -1}, {"", 2}, {"k", -1}},
                                      {{"l", -1}, {"", 0}},
                                      {{"m", -1}, {"p", -1}, {"q", -1}},
                                      {{"missing", -1}},
                                      {{"a", -1}, {"not-a-map", -1}}});
  Item expected = {
      {"l", List({AttributeValue::String("x"), Map({{"k", AttributeValue::String("v")}})})},
      {"m", Map({{"p", Map({{"q", AttributeValue::Number("2")}})}})},
  };
  CHECK(projected == expected);
  CHECK(RenderPath({{"a", -1}, {"b", -1}, {"", 3}}) == "[a, b, [3]]");
}

}  // namespace
}  // namespace ddbd
