// TableIndexes::EntriesFor works on the stored blob without decoding it: each entry must be what
// the item's decoded attributes give (index key bytes, then table key bytes; the attributes the
// projection keeps, in the item's order, encoded and sized as any item), and an item the index
// cannot hold (a key attribute missing, of another type, empty or too long) has no entry.
#include "engine/storage/table_indexes.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"
#include "engine/model/number.h"
#include "tests/values.h"

namespace ddbd {
namespace {

AttributeValue B(std::string bytes) { return AttributeValue::Binary(std::move(bytes)); }
AttributeValue Of(AttributeType type) {
  AttributeValue value;
  value.type = type;
  return value;
}

IndexDescription Index(std::string name, bool global, size_t slot,
                       std::vector<KeySchemaElement> key, ProjectionType projection,
                       std::vector<std::string> include = {}) {
  IndexDescription index;
  index.definition.index_name = std::move(name);
  index.definition.key_schema = std::move(key);
  index.definition.projection = {projection, std::move(include)};
  index.is_global = global;
  index.slot = slot;
  return index;
}

// A table keyed by (pk S, sk NumberOf) with a local index on `l` (NumberOf, KEYS_ONLY), a global
// one on (g S, h NumberOf) projecting ALL, one on (b B) projecting INCLUDE [x, missing], and one
// whose key has two partition attributes (g, l) and no sort key, KEYS_ONLY.
TableDescription TableIndexesTable() {
  TableDescription table;
  table.table_name = "T";
  table.attribute_definitions = {{"pk", ScalarAttributeType::kS}, {"sk", ScalarAttributeType::kN},
                                 {"l", ScalarAttributeType::kN},  {"g", ScalarAttributeType::kS},
                                 {"h", ScalarAttributeType::kN},  {"b", ScalarAttributeType::kB}};
  table.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  table.indexes = {
      Index("local", false, 0, {{"pk", KeyType::kHash}, {"l", KeyType::kRange}},
            ProjectionType::kKeysOnly),
      Index("all", true, 1, {{"g", KeyType::kHash}, {"h", KeyType::kRange}}, ProjectionType::kAll),
      Index("include", true, 3, {{"b", KeyType::kHash}}, ProjectionType::kInclude,
            {"x", "missing"}),
      Index("two", true, 2, {{"g", KeyType::kHash}, {"l", KeyType::kHash}},
            ProjectionType::kKeysOnly)};
  return table;
}

// What an entry must be, from the decoded item.
IndexEntry Expected(const TableIndex& index, const Item& item,
                    const std::vector<std::string>& kept) {
  Item projected;
  for (const auto& [name, value] : item) {
    if (index.projection_type() == ProjectionType::kAll ||
        std::find(kept.begin(), kept.end(), name) != kept.end()) {
      projected.emplace_back(name, value);
    }
  }
  std::string key = KeyBytes(index.key, item);
  key += EncodeTableKey(*FindAttribute(item, "pk"), FindAttribute(item, "sk"));
  return {index.number, key,
          StoredItem{EncodeItem(projected), static_cast<uint32_t>(ItemSize(projected))}};
}

IndexEntries EntriesOf(const TableIndexes& indexes, const Item& item) {
  const std::string key = EncodeTableKey(*FindAttribute(item, "pk"), FindAttribute(item, "sk"));
  return indexes.EntriesFor(key,
                            StoredItem{EncodeItem(item), static_cast<uint32_t>(ItemSize(item))});
}

void RequireSame(const IndexEntries& actual, const std::vector<IndexEntry>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    CHECK(actual[i].index == expected[i].index);
    CHECK(actual[i].key == expected[i].key);
    CHECK(actual[i].item.blob == expected[i].item.blob);
    CHECK(actual[i].item.size_bytes == expected[i].item.size_bytes);
  }
}

TEST_CASE("Index entries from a stored item are those of its decoded attributes") {
  const TableIndexes indexes(TableIndexesTable());
  const TableIndex& local = *indexes.Find("local");
  const TableIndex& all = *indexes.Find("all");
  const TableIndex& include = *indexes.Find("include");
  const TableIndex& two = *indexes.Find("two");
  AttributeValue map = Of(AttributeType::kM);
  map.map = {{"h", NumberOf("1")}, {"g", S("inner")}};
  AttributeValue list = Of(AttributeType::kL);
  list.list = {S("a"), NumberOf("2"), AttributeValue::Boolean(true)};
  AttributeValue set = Of(AttributeType::kSS);
  set.members = {"a", "b"};
  // Attributes in an order of their own, with values of every kind around the keys.
  Item item = {{"x", S("kept by INCLUDE")},
               {"g", S(std::string("with\0zero", 9))},
               {"m", map},
               {"sk", NumberOf("-12.5")},
               {"b", B(std::string("\x00\xFF\x01", 3))},
               {"l", NumberOf("100")},
               {"list", list},
               {"h", NumberOf("0")},
               {"pk", S("partition")},
               {"set", set}};
  RequireSame(EntriesOf(indexes, item),
              {Expected(local, item, {"pk", "sk", "l"}), Expected(all, item, {}),
               Expected(include, item, {"pk", "sk", "b", "x", "missing"}),
               Expected(two, item, {"pk", "sk", "g", "l"})});
  // For entries that point at the item's record (a replay's build): the ALL projection's entry
  // is its key and size alone, marked whole; the others as before.
  const std::string key = EncodeTableKey(*FindAttribute(item, "pk"), FindAttribute(item, "sk"));
  const StoredItem stored{EncodeItem(item), static_cast<uint32_t>(ItemSize(item))};
  IndexEntries sized =
      indexes.EntriesFor(key, stored.blob, stored.size_bytes, WholeItems::kSizeOnly);
  IndexEntries copied = indexes.EntriesFor(key, stored);
  REQUIRE(sized.size() == copied.size());
  for (size_t i = 0; i < sized.size(); ++i) {
    CHECK(sized[i].whole_item == (sized[i].index == all.number));
    CHECK(copied[i].whole_item == sized[i].whole_item);
    if (sized[i].whole_item) {
      CHECK(sized[i].item.blob.empty());
      CHECK(copied[i].item.blob == stored.blob);
      sized[i].item.blob = stored.blob;
    }
  }
  RequireSame(sized, copied);
}

TEST_CASE("An item an index cannot hold has no entry in it") {
  const TableIndexes indexes(TableIndexesTable());
  const TableIndex& local = *indexes.Find("local");
  const TableIndex& all = *indexes.Find("all");
  const TableIndex& include = *indexes.Find("include");
  const TableIndex& two = *indexes.Find("two");
  const Item base = {{"pk", S("p")},       {"sk", NumberOf("1")}, {"g", S("g")},
                     {"h", NumberOf("2")}, {"l", NumberOf("3")},  {"b", B("b")}};
  RequireSame(EntriesOf(indexes, base),
              {Expected(local, base, {"pk", "sk", "l"}), Expected(all, base, {}),
               Expected(include, base, {"pk", "sk", "b", "x", "missing"}),
               Expected(two, base, {"pk", "sk", "g", "l"})});
  auto with = [&](const std::string& name, std::optional<AttributeValue> value) {
    Item item;
    for (const auto& [attribute, current] : base) {
      if (attribute != name) item.emplace_back(attribute, current);
    }
    if (value) item.emplace_back(name, *value);
    return item;
  };
  // g missing, a number, empty, over 2048 bytes: neither "all" nor "two" holds the item.
  for (const std::optional<AttributeValue>& g :
       {std::optional<AttributeValue>(), std::optional(NumberOf("5")), std::optional(S("")),
        std::optional(S(std::string(2049, 'g')))}) {
    const Item item = with("g", g);
    RequireSame(EntriesOf(indexes, item),
                {Expected(local, item, {"pk", "sk", "l"}),
                 Expected(include, item, {"pk", "sk", "b", "x", "missing"})});
  }
  // 2048 bytes is within the partition key's limit.
  const Item longest = with("g", S(std::string(2048, 'g')));
  CHECK(EntriesOf(indexes, longest).size() == 4);
  // h a string: "all" (its sort key) drops the item, the others keep it.
  const Item h_string = with("h", S("2"));
  RequireSame(EntriesOf(indexes, h_string),
              {Expected(local, h_string, {"pk", "sk", "l"}),
               Expected(include, h_string, {"pk", "sk", "b", "x", "missing"}),
               Expected(two, h_string, {"pk", "sk", "g", "l"})});
  // b empty or over 2048 bytes: "include" drops it; l missing: "local" and "two" do.
  for (const AttributeValue& b : {B(""), B(std::string(2049, 'b'))}) {
    const Item item = with("b", b);
    RequireSame(EntriesOf(indexes, item),
                {Expected(local, item, {"pk", "sk", "l"}), Expected(all, item, {}),
                 Expected(two, item, {"pk", "sk", "g", "l"})});
  }
  const Item no_l = with("l", std::nullopt);
  RequireSame(
      EntriesOf(indexes, no_l),
      {Expected(all, no_l, {}), Expected(include, no_l, {"pk", "sk", "b", "x", "missing"})});
}

}  // namespace
TEST_CASE("Entries computed into one vector, over and over, are those computed afresh") {
  // Index key bytes of short partition values are remembered per thread (table_indexes.cc): two
  // sets of indexes whose slot 1 keys by the same values differently (a string `g` here, a
  // number `g` there: the same text, other bytes) take turns, with values met again and again,
  // long ones, and items the index cannot hold; one vector is refilled throughout.
  const TableIndexes strings(TableIndexesTable());
  TableDescription numbers_table = TableIndexesTable();
  numbers_table.attribute_definitions[3].attribute_type = ScalarAttributeType::kN;
  const TableIndexes numbers(numbers_table);
  IndexEntries reused;
  for (int i = 0; i < 600; ++i) {
    const bool number = i % 3 == 1;
    const TableIndexes& indexes = number ? numbers : strings;
    const std::string value = i % 7 == 0 && !number
                                  ? std::string(static_cast<size_t>(40 + i % 5), 'v')
                                  : std::to_string(i % 11);
    Item item = {{"pk", S("p" + std::to_string(i))},
                 {"sk", NumberOf("1")},
                 {"h", NumberOf(std::to_string(i % 4))},
                 {"l", NumberOf("3")},
                 {"b", B("b")}};
    if (i % 13 != 0) item.emplace_back("g", number ? NumberOf(value) : S(value));
    const std::string key = EncodeTableKey(*FindAttribute(item, "pk"), FindAttribute(item, "sk"));
    const std::string blob = EncodeItem(item);
    const auto size = static_cast<uint32_t>(ItemSize(item));
    indexes.EntriesInto(key, blob, size, WholeItems::kCopied, reused);
    std::vector<IndexEntry> expected;
    for (const TableIndex& index : indexes.list()) {
      std::vector<std::string> kept = {"pk", "sk"};
      for (const auto* parts : {&index.key.partition, &index.key.sort}) {
        for (const KeyPart& part : *parts) kept.push_back(part.name);
      }
      for (const std::string& name : index.description.definition.projection.non_key_attributes) {
        kept.push_back(name);
      }
      const AttributeValue* g = FindAttribute(item, "g");
      const bool keyed_by_g = index.key.Contains("g");
      if (keyed_by_g && g == nullptr) continue;
      expected.push_back(Expected(index, item, kept));
    }
    CAPTURE(i, number, value);
    RequireSame(reused, expected);
  }
}

}  // namespace ddbd
