#include "engine/storage/table_vectors.h"

#include <algorithm>

#include "engine/model/item_codec.h"
#include "engine/model/item_key.h"
#include "engine/model/key_codec.h"
#include "engine/model/number.h"

namespace ddbd {
namespace {

std::optional<AttributeType> DeclaredType(const std::vector<AttributeDefinition>& types,
                                          const std::string& name) {
  for (const AttributeDefinition& definition : types) {
    if (definition.attribute_name == name) return ToAttributeType(definition.attribute_type);
  }
  return std::nullopt;
}

}  // namespace

vector::DistanceFunction ScoringOf(VectorDistanceFunction function) {
  switch (function) {
    case VectorDistanceFunction::kCosine:
      return vector::DistanceFunction::kCosine;
    case VectorDistanceFunction::kEuclidean:
      return vector::DistanceFunction::kEuclidean;
    case VectorDistanceFunction::kDotProduct:
      return vector::DistanceFunction::kDotProduct;
  }
  return vector::DistanceFunction::kCosine;
}

std::optional<std::vector<float>> StoredVector(std::string_view encoded, size_t dimensions) {
  BlobReader reader(encoded);
  if (reader.Type() != AttributeType::kL || reader.Count() != dimensions) return std::nullopt;
  std::vector<float> elements(dimensions);
  for (float& element : elements) {
    if (reader.Type() != AttributeType::kN) return std::nullopt;
    const std::optional<float> number = NumberAsF32(reader.Bytes());
    if (!number) return std::nullopt;
    element = *number;
  }
  return elements;
}

std::optional<std::string> SchemaValueBytes(const AttributeValue* value, AttributeType type) {
  if (value == nullptr || value->type != type) return std::nullopt;
  std::string bytes;
  AppendKeyValue(bytes, *value);
  return bytes;
}

TableVector::TableVector(const VectorIndexDefinition& index,
                         const std::vector<AttributeDefinition>& types)
    : definition(index),
      store(static_cast<size_t>(index.dimensions),
            static_cast<size_t>(
                std::count_if(index.search_schema.begin(), index.search_schema.end(),
                              [](const SearchSchemaElement& e) {
                                return e.type == SearchSchemaElement::Type::kInlineFilter;
                              }))) {
  for (const SearchSchemaElement& element : index.search_schema) {
    const AttributeType type =
        DeclaredType(types, element.attribute_name).value_or(AttributeType::kS);
    if (element.type == SearchSchemaElement::Type::kHash) {
      hash_type = type;
    } else {
      filter_attributes.push_back(element.attribute_name);
      filter_types.push_back(type);
    }
  }
}

namespace {

// The key bytes of top-level attribute `name` of `blob` if it is there with type `type`.
std::optional<std::string> SchemaBytesOf(std::string_view blob, const std::string& name,
                                         AttributeType type) {
  const std::optional<std::string_view> payload = FindScalarAttribute(blob, name, type);
  if (!payload) return std::nullopt;
  AttributeValue value;
  value.type = type;
  value.scalar = std::string(*payload);
  return SchemaValueBytes(&value, type);
}

}  // namespace

void TableVector::OnCommit(const ChangeRecord& change) {
  if (change.kind == ChangeKind::kNone) return;
  if (change.kind == ChangeKind::kRemove) return store.Remove(change.key);
  const std::optional<std::string_view> vector =
      FindAttributeValue(change.new_item, definition.vector_attribute);
  if (change.kind == ChangeKind::kModify &&
      AttributeValueIs(change.old_item, definition.vector_attribute, vector)) {
    // The vector's stored bytes are as they were: unless a search-schema value changed too, the
    // index has nothing to do, and no number is read again.
    const bool schema_same = std::all_of(
        definition.search_schema.begin(), definition.search_schema.end(),
        [&](const SearchSchemaElement& element) {
          return AttributeValueIs(change.old_item, element.attribute_name,
                                  FindAttributeValue(change.new_item, element.attribute_name));
        });
    if (schema_same) return;
  }
  ApplyFound(change.key, change.new_item, vector);
}

void TableVector::Apply(std::string_view key, std::string_view blob) {
  if (blob.empty()) return store.Remove(key);
  ApplyFound(key, blob, FindAttributeValue(blob, definition.vector_attribute));
}

void TableVector::ApplyFound(std::string_view key, std::string_view blob,
                             std::optional<std::string_view> encoded) {
  std::optional<std::vector<float>> values;
  if (encoded) values = StoredVector(*encoded, static_cast<size_t>(definition.dimensions));
  std::optional<std::string> partition = std::string();
  if (values && hash_type)
    partition = SchemaBytesOf(blob, *definition.hash_attribute(), *hash_type);
  if (!values || !partition) {
    store.Remove(key);
    return;
  }
  std::vector<std::string> filters(filter_attributes.size());
  for (size_t i = 0; i < filter_attributes.size(); ++i) {
    filters[i] = SchemaBytesOf(blob, filter_attributes[i], filter_types[i]).value_or("");
  }
  store.Put(key, *partition, *values, filters);
}

const TableVector* TableVectors::Find(std::string_view name) const { return Shared(name).get(); }

std::shared_ptr<TableVector> TableVectors::Shared(std::string_view name) const {
  for (const auto& index : indexes_) {
    if (index->definition.index_name == name) return index;
  }
  return nullptr;
}

}  // namespace ddbd
