#include "engine/persistence/vector_index_codec.h"

#include <utility>

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum VectorIndexField : uint32_t {
  kVectorIndexName = 1,
  kVectorAttribute,
  kDimensions,
  kDistanceFunction,
  kSearchSchemaElement,  // a pair: the attribute (kName), its SearchSchemaElement::Type (kType)
  kVectorProjectionType,
  kVectorNonKey,
  kVectorIndexStatus,
  kVectorBackfilling,
  kVectorCreated,
};
enum SchemaElement : uint32_t { kName = 1, kType };

}  // namespace

std::string EncodeVectorIndex(const VectorIndexDescription& index) {
  FieldWriter fields;
  const VectorIndexDefinition& definition = index.definition;
  fields.Bytes(kVectorIndexName, definition.index_name);
  fields.Bytes(kVectorAttribute, definition.vector_attribute);
  fields.Int(kDimensions, definition.dimensions);
  fields.Int(kDistanceFunction, static_cast<int64_t>(definition.distance_function));
  for (const SearchSchemaElement& element : definition.search_schema) {
    FieldWriter pair;
    pair.Bytes(kName, element.attribute_name);
    pair.Int(kType, static_cast<int64_t>(element.type));
    fields.Bytes(kSearchSchemaElement, pair.bytes());
  }
  fields.Int(kVectorProjectionType, static_cast<int64_t>(definition.projection.projection_type));
  for (const std::string& name : definition.projection.non_key_attributes) {
    fields.Bytes(kVectorNonKey, name);
  }
  fields.Int(kVectorIndexStatus, static_cast<int64_t>(index.index_status));
  fields.Int(kVectorBackfilling, index.backfilling ? 1 : 0);
  fields.Int(kVectorCreated, index.created_ms);
  return fields.Take();
}

std::optional<VectorIndexDescription> DecodeVectorIndex(std::string_view bytes) {
  FieldReader fields(bytes);
  VectorIndexDescription index;
  VectorIndexDefinition& definition = index.definition;
  bool nested_ok = true;
  while (fields.Next()) {
    switch (fields.number()) {
      case kVectorIndexName:
        definition.index_name = std::string(fields.text());
        break;
      case kVectorAttribute:
        definition.vector_attribute = std::string(fields.text());
        break;
      case kDimensions:
        definition.dimensions = fields.integer();
        break;
      case kDistanceFunction:
        definition.distance_function = static_cast<VectorDistanceFunction>(fields.integer());
        break;
      case kSearchSchemaElement: {
        SearchSchemaElement& element = definition.search_schema.emplace_back();
        FieldReader pair(fields.text());
        while (pair.Next()) {
          if (pair.number() == kName) element.attribute_name = std::string(pair.text());
          if (pair.number() == kType) {
            element.type = static_cast<SearchSchemaElement::Type>(pair.integer());
          }
        }
        nested_ok = nested_ok && pair.ok();
        break;
      }
      case kVectorProjectionType:
        definition.projection.projection_type = static_cast<ProjectionType>(fields.integer());
        break;
      case kVectorNonKey:
        definition.projection.non_key_attributes.emplace_back(fields.text());
        break;
      case kVectorIndexStatus:
        index.index_status = static_cast<TableStatus>(fields.integer());
        break;
      case kVectorBackfilling:
        index.backfilling = fields.integer() != 0;
        break;
      case kVectorCreated:
        index.created_ms = fields.integer();
        break;
      default:
        break;  // a later ddbd's field
    }
  }
  if (!fields.ok() || !nested_ok) return std::nullopt;
  return index;
}

}  // namespace ddbd
