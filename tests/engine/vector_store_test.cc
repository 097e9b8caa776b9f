// A vector index's store (issue 41) kept exact through random puts, moves between partitions and
// removals: every search equals a full recomputation over what was last written.
#include "engine/vector/vector_store.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/model/item_codec.h"
#include "engine/storage/table_vectors.h"

namespace ddbd::vector {
namespace {

struct Written {
  std::string partition;
  std::vector<float> values;
  std::string filter;
};

// The best `k` of `written` by a plain loop: every candidate scored, ties by key.
std::vector<std::pair<std::string, double>> Reference(const std::map<std::string, Written>& written,
                                                      DistanceFunction function,
                                                      const std::vector<float>& query,
                                                      const std::string* partition,
                                                      const std::optional<std::string>& filter,
                                                      size_t k) {
  std::vector<std::pair<std::string, double>> all;
  for (const auto& [key, item] : written) {
    if (partition != nullptr && item.partition != *partition) continue;
    if (filter && item.filter != *filter) continue;
    all.emplace_back(
        key, Score(function, query, SquaredNorm(query), item.values, SquaredNorm(item.values)));
  }
  const bool larger = LargerIsBetter(function);
  std::sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
    if (a.second != b.second) return larger ? a.second > b.second : a.second < b.second;
    return a.first < b.first;
  });
  if (all.size() > k) all.resize(k);
  return all;
}

TEST_CASE("A vector store answers as a full recomputation after random writes") {
  std::mt19937 random(41);
  constexpr size_t kDimensions = 5;
  std::uniform_int_distribution<int> coarse(-2, 2);  // small integers: many ties
  auto vector_of = [&] {
    std::vector<float> v(kDimensions);
    for (float& x : v) x = static_cast<float>(coarse(random));
    return v;
  };
  for (DistanceFunction function :
       {DistanceFunction::kCosine, DistanceFunction::kEuclidean, DistanceFunction::kDotProduct}) {
    VectorStore store(kDimensions, 1);
    std::map<std::string, Written> written;
    for (int step = 0; step < 3000; ++step) {
      const std::string key = "k" + std::to_string(random() % 200);
      if (random() % 4 == 0) {
        store.Remove(key);
        written.erase(key);
      } else {
        Written item{"p" + std::to_string(random() % 3), vector_of(), random() % 2 ? "x" : "y"};
        const std::string filters[] = {item.filter};
        store.Put(key, item.partition, item.values, filters);
        written[key] = item;
      }
      if (step % 100 != 0) continue;
      const std::vector<float> query = vector_of();
      const std::string partition = "p" + std::to_string(random() % 3);
      for (const std::string* in : {static_cast<const std::string*>(nullptr), &partition}) {
        for (const std::optional<std::string>& filter :
             {std::optional<std::string>(), std::optional<std::string>("x")}) {
          VectorStore::Search search;
          search.query = query;
          search.function = function;
          search.top_k = 7;
          search.partition = in;
          const std::optional<std::string> filters[] = {filter};
          search.filters = filters;
          const auto found = store.Find(search);
          const auto expected = Reference(written, function, query, in, filter, 7);
          REQUIRE(found.size() == expected.size());
          for (size_t i = 0; i < found.size(); ++i) {
            CHECK(std::string(found[i].key) == expected[i].first);
            CHECK(found[i].score == expected[i].second);
          }
        }
      }
    }
    CHECK(store.size() == written.size());
    CHECK(store.vector_bytes() == static_cast<int64_t>(written.size() * kDimensions * 4));
  }
}

TEST_CASE("Only well-formed vectors are read from stored items") {
  auto number_list = [](std::vector<std::string> numbers) {
    AttributeValue list;
    list.type = AttributeType::kL;
    for (std::string& n : numbers) list.list.push_back(AttributeValue::Number(std::move(n)));
    return list;
  };
  // The vector as the item stores it, found without decoding the item.
  auto stored = [](const AttributeValue& value) {
    static std::string blob;
    blob = EncodeItem({{"pk", AttributeValue::String("a")}, {"v", value}});
    return *FindAttributeValue(blob, "v");
  };
  CHECK(StoredVector(stored(number_list({"1", "-2.5", "3E+2"})), 3) ==
        std::vector<float>{1, -2.5f, 300});
  CHECK(StoredVector(stored(number_list({"0.1"})), 1) == std::vector<float>{0.1f});  // rounded once
  CHECK_FALSE(StoredVector(stored(number_list({"1", "2"})), 3));           // the wrong length
  CHECK_FALSE(StoredVector(stored(number_list({"1", "1E+39", "0"})), 3));  // beyond f32
  CHECK_FALSE(StoredVector(stored(AttributeValue::String("1,2,3")), 3));   // not a list
  AttributeValue mixed = number_list({"1", "2"});
  mixed.list.push_back(AttributeValue::String("3"));
  CHECK_FALSE(StoredVector(stored(mixed), 3));  // not all numbers
  CHECK_FALSE(FindAttributeValue(EncodeItem({{"pk", AttributeValue::String("a")}}), "v"));
}

TEST_CASE("A stored attribute is told unchanged by its bytes") {
  const std::string before = EncodeItem({{"pk", AttributeValue::String("a")},
                                         {"v", AttributeValue::Number("1")},
                                         {"w", AttributeValue::String("x")}});
  const std::string after = EncodeItem({{"pk", AttributeValue::String("a")},
                                        {"v", AttributeValue::Number("1")},
                                        {"w", AttributeValue::String("xy")}});
  CHECK(AttributeValueIs(before, "v", FindAttributeValue(after, "v")));
  CHECK_FALSE(AttributeValueIs(before, "w", FindAttributeValue(after, "w")));  // "x" vs "xy"
  CHECK_FALSE(AttributeValueIs(after, "w", FindAttributeValue(before, "w")));
  CHECK(AttributeValueIs(before, "z", std::nullopt));                          // absent both
  CHECK_FALSE(AttributeValueIs(before, "v", std::nullopt));                    // removed
  CHECK_FALSE(AttributeValueIs(before, "z", FindAttributeValue(after, "v")));  // added
}

}  // namespace
}  // namespace ddbd::vector
