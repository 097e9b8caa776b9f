// The Engine's vector search (issue 41): the table's vector index scored exactly under the
// table's read lock, its best items read under the same hold and projected.

#include <algorithm>

#include "engine/calls/engine_state.h"
#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/storage/table_vectors.h"

namespace ddbd {
namespace {

Error InvalidCondition(const std::string& detail) {
  return Error::Validation("Invalid SearchConditionExpression: " + detail);
}

// What the index's Projection keeps of an item: everything (ALL), or the table's keys, the search
// schema's attributes and, for INCLUDE, the attributes it names. The vector itself is kept only
// by ALL or when INCLUDE names it.
Item IndexProjection(const TableDescription& table, const VectorIndexDefinition& index, Item item) {
  if (index.projection.projection_type == ProjectionType::kAll) return item;
  auto kept = [&](const std::string& name) {
    for (const KeySchemaElement& key : table.key_schema) {
      if (key.attribute_name == name) return true;
    }
    for (const SearchSchemaElement& element : index.search_schema) {
      if (element.attribute_name == name) return true;
    }
    const auto& extra = index.projection.non_key_attributes;
    return index.projection.projection_type == ProjectionType::kInclude &&
           std::find(extra.begin(), extra.end(), name) != extra.end();
  };
  std::erase_if(item, [&](const auto& attribute) { return !kept(attribute.first); });
  return item;
}

}  // namespace

Result<SearchVectorsOutcome> Engine::SearchVectors(const SearchVectorsArgs& args) const {
  auto found = state_->catalog.FindVectorTable(args.table_name);
  if (!found.ok()) return found.error();
  const VectorTable& table = found.value();
  const TableVector* index =
      table.vectors != nullptr ? table.vectors->Find(args.index_name) : nullptr;
  const VectorIndexDescription* described = nullptr;
  for (const VectorIndexDescription& candidate : table.description.vector_indexes) {
    if (candidate.definition.index_name == args.index_name) described = &candidate;
  }
  if (index == nullptr || described == nullptr) {
    return Error::Validation("The table does not have the specified index: " + args.index_name);
  }
  // Until it is ACTIVE: allocating or backfilling (the text recorded against AWS for the latter;
  // aws-semantics.md section 11).
  if (described->index_status != TableStatus::kActive ||
      !index->filled.load(std::memory_order_acquire)) {
    return Error::Validation("Cannot search backfilling vector index: " + args.index_name);
  }
  const VectorIndexDefinition& definition = index->definition;
  if (static_cast<int64_t>(args.search_vector.size()) != definition.dimensions) {
    return Error::Validation("The search vector has " + std::to_string(args.search_vector.size()) +
                             " dimensions; vector index " + args.index_name + " has " +
                             std::to_string(definition.dimensions));
  }

  // The condition's values, as the store compares them.
  std::optional<std::string> partition;
  std::vector<std::optional<std::string>> filters(index->filter_attributes.size());
  for (const auto& [name, value] : args.conditions) {
    std::optional<AttributeType> type;
    std::optional<std::string>* slot = nullptr;
    if (const std::string* hash = definition.hash_attribute(); hash != nullptr && *hash == name) {
      type = index->hash_type;
      slot = &partition;
    }
    for (size_t i = 0; i < index->filter_attributes.size(); ++i) {
      if (index->filter_attributes[i] == name) {
        type = index->filter_types[i];
        slot = &filters[i];
      }
    }
    if (slot == nullptr) {
      return InvalidCondition("Attribute " + name + " is not in the SearchSchema of vector index " +
                              args.index_name);
    }
    std::optional<std::string> bytes = SchemaValueBytes(&value, *type);
    if (!bytes) {
      return Error::Validation(
          "One or more parameter values were invalid: Condition parameter type does not match "
          "schema type");
    }
    if (slot->has_value() && **slot != *bytes) return SearchVectorsOutcome{};  // a = 1 AND a = 2
    *slot = std::move(bytes);
  }
  if (const std::string* hash = definition.hash_attribute(); hash != nullptr && !partition) {
    return InvalidCondition("The HASH attribute " + *hash + " of vector index " + args.index_name +
                            " must be given a value");
  }

  SearchVectorsOutcome outcome;
  vector::VectorStore::Search search;
  search.query = args.search_vector;
  search.function = ScoringOf(definition.distance_function);
  search.top_k = static_cast<size_t>(args.top_k);
  search.partition = partition ? &*partition : nullptr;
  search.filters = filters;
  uint64_t answer_bytes = 0;
  size_t scored = 0;
  search.scored = &scored;
  table.items->WhileHeld([&] {
    for (const vector::VectorStore::Found& match : index->store.Find(search)) {
      std::string_view blob;
      uint32_t size = 0;
      if (!table.items->FindDuringWalk(match.key, &blob, &size)) continue;
      Item item = IndexProjection(table.description, definition, DecodeItem(blob));
      if (args.projection != nullptr) item = ProjectItem(item, *args.projection);
      // DynamoDB's answers stop at 16 MB, of the items as answered.
      const size_t answered = ItemSize(item);
      if (answer_bytes + answered > kMaxSearchResponseBytes) break;
      answer_bytes += answered;
      outcome.results.push_back({ReadItem{std::nullopt, std::move(item)}, match.score});
    }
  });
  if (args.return_consumed_capacity != ReturnConsumedCapacity::kNone) {
    outcome.search_request_bytes =
        static_cast<int64_t>(scored * static_cast<size_t>(definition.dimensions) * sizeof(float));
  }
  return outcome;
}

}  // namespace ddbd
