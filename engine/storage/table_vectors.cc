#include "engine/storage/table_vectors.h"

#include <charconv>
#include <cmath>

#include "engine/model/item_codec.h"
#include "engine/model/item_key.h"
#include "engine/model/key_codec.h"

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

std::optional<std::vector<float>> VectorOf(const AttributeValue& value, size_t dimensions) {
  if (value.type != AttributeType::kL) return std::nullopt;
  if (dimensions != 0 && value.list.size() != dimensions) return std::nullopt;
  std::vector<float> elements;
  elements.reserve(value.list.size());
  for (const AttributeValue& element : value.list) {
    if (element.type != AttributeType::kN) return std::nullopt;
    float f = 0;
    const char* end = element.scalar.data() + element.scalar.size();
    // Rounded once, from the decimal text to the nearest f32; a number beyond f32's range
    // either way is refused.
    auto [at, problem] = std::from_chars(element.scalar.data(), end, f);
    if (problem != std::errc() || at != end || !std::isfinite(f)) return std::nullopt;
    elements.push_back(f);
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
    : definition(index), store(static_cast<size_t>(index.dimensions), 0) {
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
  store = vector::VectorStore(static_cast<size_t>(index.dimensions), filter_attributes.size());
}

void TableVector::ApplyItem(std::string_view key, const Item& item) {
  const AttributeValue* attribute = FindAttribute(item, definition.vector_attribute);
  std::optional<std::vector<float>> values;
  if (attribute != nullptr)
    values = VectorOf(*attribute, static_cast<size_t>(definition.dimensions));
  std::optional<std::string> partition = std::string();
  if (values && hash_type) {
    partition = SchemaValueBytes(FindAttribute(item, *definition.hash_attribute()), *hash_type);
  }
  if (!values || !partition) {
    store.Remove(key);
    return;
  }
  std::vector<std::string> filters(filter_attributes.size());
  for (size_t i = 0; i < filter_attributes.size(); ++i) {
    filters[i] = SchemaValueBytes(FindAttribute(item, filter_attributes[i]), filter_types[i])
                     .value_or(std::string());
  }
  store.Put(key, *partition, *values, filters);
}

void TableVector::Apply(std::string_view key, std::string_view blob) {
  if (blob.empty()) {
    store.Remove(key);
    return;
  }
  ApplyItem(key, DecodeItem(blob));
}

const TableVector* TableVectors::Find(std::string_view name) const { return Shared(name).get(); }

std::shared_ptr<TableVector> TableVectors::Shared(std::string_view name) const {
  for (const auto& index : indexes_) {
    if (index->definition.index_name == name) return index;
  }
  return nullptr;
}

}  // namespace ddbd
