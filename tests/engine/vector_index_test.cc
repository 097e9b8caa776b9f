// Vector indexes through the engine (issue 41): random writes on every write path (PutItem,
// UpdateItem's SET of the vector, of a filter value and of another attribute, REMOVE, DeleteItem,
// BatchWriteItem, TransactWriteItems), some with vectors
// the index must leave out; after each, SearchVectors must answer what a full recomputation over a
// Scan of the table gives, with and without its HASH and filter conditions. Then an index added
// by UpdateTable to the filled table answers the same.
#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/vector/distance.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

constexpr size_t kDimensions = 3;

AttributeValue VectorValue(const std::vector<std::string>& numbers) {
  AttributeValue list;
  list.type = AttributeType::kL;
  for (const std::string& n : numbers) list.list.push_back(AttributeValue::Number(n));
  return list;
}

VectorIndexDefinition VectorDefinition(std::string name, VectorDistanceFunction function) {
  VectorIndexDefinition index;
  index.index_name = std::move(name);
  index.vector_attribute = "v";
  index.dimensions = kDimensions;
  index.distance_function = function;
  index.search_schema = {{"cat", SearchSchemaElement::Type::kHash},
                         {"color", SearchSchemaElement::Type::kInlineFilter}};
  return index;
}

// What a search must answer: every item a Scan reads that the index holds, scored the plain way.
std::vector<std::pair<std::string, double>> Recomputed(Engine& engine,
                                                       VectorDistanceFunction function,
                                                       const std::vector<float>& query,
                                                       const std::string& cat,
                                                       const std::optional<std::string>& color) {
  ScanArgs scan;
  scan.table_name = "vectors";
  auto page = engine.Scan(scan);
  REQUIRE(page.ok());
  REQUIRE_FALSE(page.value().last_evaluated_key);
  const auto scoring = static_cast<vector::DistanceFunction>(function);
  std::vector<std::pair<std::string, double>> all;
  for (const std::string_view blob : page.value().item_blobs) {
    const Item item = DecodeItem(blob);
    const AttributeValue* v = FindAttribute(item, "v");
    const AttributeValue* c = FindAttribute(item, "cat");
    const AttributeValue* k = FindAttribute(item, "color");
    if (v == nullptr || v->type != AttributeType::kL || v->list.size() != kDimensions) continue;
    std::vector<float> values;
    for (const AttributeValue& n : v->list) {
      if (n.type != AttributeType::kN) break;
      values.push_back(std::stof(n.scalar));
    }
    if (values.size() != kDimensions) continue;
    if (c == nullptr || c->type != AttributeType::kS || c->scalar != cat) continue;
    if (color && (k == nullptr || k->type != AttributeType::kS || k->scalar != *color)) continue;
    all.emplace_back(FindAttribute(item, "pk")->scalar,
                     vector::Score(scoring, query, vector::SquaredNorm(query), values,
                                   vector::SquaredNorm(values)));
  }
  // Ties in the Scan's order, as the store keeps them (by key bytes).
  std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) {
    return vector::LargerIsBetter(scoring) ? a.second > b.second : a.second < b.second;
  });
  if (all.size() > 5) all.resize(5);
  return all;
}

void CheckSearches(Engine& engine, const std::string& index, VectorDistanceFunction function,
                   std::mt19937& random) {
  std::uniform_int_distribution<int> element(-3, 3);
  const std::vector<float> query = {static_cast<float>(element(random)),
                                    static_cast<float>(element(random)), 1.0f};
  for (const std::string cat : {"a", "b"}) {
    for (const std::optional<std::string>& color :
         {std::optional<std::string>(), std::optional<std::string>("red")}) {
      SearchVectorsArgs args;
      args.table_name = "vectors";
      args.index_name = index;
      args.search_vector = query;
      args.top_k = 5;
      args.conditions = {{"cat", AttributeValue::String(cat)}};
      if (color) args.conditions.push_back({"color", AttributeValue::String(*color)});
      auto found = engine.SearchVectors(args);
      REQUIRE(found.ok());
      const auto expected = Recomputed(engine, function, query, cat, color);
      REQUIRE(found.value().results.size() == expected.size());
      for (size_t i = 0; i < expected.size(); ++i) {
        const Item& item = *found.value().results[i].item.projected;
        CHECK(FindAttribute(item, "pk")->scalar == expected[i].first);
        CHECK(found.value().results[i].score == expected[i].second);
      }
    }
  }
}

TEST_CASE("Every write path keeps a vector index exact") {
  for (VectorDistanceFunction function :
       {VectorDistanceFunction::kCosine, VectorDistanceFunction::kEuclidean,
        VectorDistanceFunction::kDotProduct}) {
    ManualClock clock;
    Engine engine({}, clock);
    CreateTableArgs table = testing::OnDemandHashTable("vectors");
    table.attribute_definitions.push_back({"cat", ScalarAttributeType::kS});
    table.attribute_definitions.push_back({"color", ScalarAttributeType::kS});
    table.vector_indexes = {VectorDefinition("emb", function)};
    REQUIRE(engine.CreateTable(table).ok());
    std::mt19937 random(static_cast<unsigned>(function) + 7);
    std::uniform_int_distribution<int> element(-3, 3);
    auto number = [&] { return std::to_string(element(random)); };
    auto item = [&](const std::string& pk) {
      Item made = {{"pk", AttributeValue::String(pk)},
                   {"cat", AttributeValue::String(random() % 2 ? "a" : "b")},
                   {"color", AttributeValue::String(random() % 2 ? "red" : "blue")}};
      switch (random() % 8) {
        case 0:  // the wrong length: not in the index
          made.push_back({"v", VectorValue({number(), number()})});
          break;
        case 1:  // not numbers: not in the index
          made.push_back({"v", AttributeValue::String("1,2,3")});
          break;
        case 2:  // no HASH attribute: not in the index
          made.erase(made.begin() + 1);
          made.push_back({"v", VectorValue({number(), number(), number()})});
          break;
        default:
          made.push_back({"v", VectorValue({number(), number(), number()})});
      }
      return made;
    };
    for (int step = 0; step < 400; ++step) {
      const std::string pk = "k" + std::to_string(random() % 40);
      const Item key = {{"pk", AttributeValue::String(pk)}};
      switch (random() % 8) {
        case 0:
          REQUIRE(testing::Put(engine, "vectors", item(pk)).ok());
          break;
        case 1:
          REQUIRE(testing::Delete(engine, "vectors", key).ok());
          break;
        case 2: {  // SET v[1]: the vector changes in place (or the update fails harmlessly)
          UpdateAction set;
          set.path = {{"v", -1}, {"", 1}};
          set.value.operand.kind = Operand::Kind::kValue;
          set.value.operand.value = AttributeValue::Number(number());
          (void)testing::Update(engine, "vectors", key, {set});
          break;
        }
        case 6:    // SET color: a filter value changes, the vector does not
        case 7: {  // SET note: neither changes (the index has nothing to do)
          UpdateAction set;
          const bool color = random() % 2 == 0;
          set.path = {{color ? "color" : "note", -1}};
          set.value.operand.kind = Operand::Kind::kValue;
          set.value.operand.value = AttributeValue::String(random() % 2 ? "red" : "blue");
          REQUIRE(testing::Update(engine, "vectors", key, {set}).ok());
          break;
        }
        case 3: {  // REMOVE v
          UpdateAction remove;
          remove.kind = UpdateAction::Kind::kRemove;
          remove.path = {{"v", -1}};
          REQUIRE(testing::Update(engine, "vectors", key, {remove}).ok());
          break;
        }
        case 4: {
          BatchWriteItemArgs batch;
          batch.requests.push_back({"vectors", WriteRequest::Kind::kPut, item(pk)});
          const std::string other = "k" + std::to_string(random() % 40);
          if (other != pk) {
            batch.requests.push_back(
                {"vectors", WriteRequest::Kind::kDelete, {{"pk", AttributeValue::String(other)}}});
          }
          REQUIRE(engine.BatchWriteItem(batch).ok());
          break;
        }
        default: {
          TransactWriteItemsArgs transaction;
          TransactWriteAction put;
          put.table_name = "vectors";
          put.item = item(pk);
          transaction.actions.push_back(put);
          const std::string other = "k" + std::to_string(random() % 40);
          if (other != pk) {
            TransactWriteAction erase;
            erase.kind = TransactWriteAction::Kind::kDelete;
            erase.table_name = "vectors";
            erase.item = {{"pk", AttributeValue::String(other)}};
            transaction.actions.push_back(erase);
          }
          REQUIRE(engine.TransactWriteItems(transaction).ok());
        }
      }
      if (step % 20 == 0) CheckSearches(engine, "emb", function, random);
    }
    CheckSearches(engine, "emb", function, random);

    // An index added to the filled table is filled from its items.
    UpdateTableArgs update;
    update.table_name = "vectors";
    update.vector_index_updates = {
        {VectorIndexUpdate::Action::kCreate, VectorDefinition("later", function)}};
    REQUIRE(engine.UpdateTable(update).ok());
    CheckSearches(engine, "later", function, random);
  }
}

}  // namespace
}  // namespace ddbd
