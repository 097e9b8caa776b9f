#include "engine/catalog/vector_index_validation.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/catalog/parameter_checks.h"

namespace ddbd {

bool UsedBySearchSchema(const std::vector<VectorIndexDefinition>& indexes,
                        const std::string& name) {
  return std::any_of(indexes.begin(), indexes.end(), [&](const VectorIndexDefinition& index) {
    return std::any_of(index.search_schema.begin(), index.search_schema.end(),
                       [&](const SearchSchemaElement& e) { return e.attribute_name == name; });
  });
}

Status ValidateVectorIndexes(const std::vector<VectorIndexDefinition>& indexes, BillingMode billing,
                             const std::vector<AttributeDefinition>& definitions,
                             const std::vector<std::string>& other_index_names) {
  if (indexes.empty()) return Ok{};
  if (billing != BillingMode::kPayPerRequest) {
    return InvalidParameter(
        "Vector indexes are supported only on tables that use on-demand capacity mode "
        "(BillingMode PAY_PER_REQUEST)");
  }
  if (indexes.size() > kMaxVectorIndexes) {
    return InvalidParameter("A table can have at most " + std::to_string(kMaxVectorIndexes) +
                            " vector indexes");
  }
  std::set<std::string> names(other_index_names.begin(), other_index_names.end());
  std::map<std::string, int64_t> dimensions_of;  // by vector attribute
  for (const VectorIndexDefinition& index : indexes) {
    if (!names.insert(index.index_name).second) {
      return InvalidParameter("Duplicate index name: " + index.index_name);
    }
    if (index.dimensions > kMaxVectorDimensions) {
      return InvalidParameter("Dimensions of vector index " + index.index_name + " is " +
                              std::to_string(index.dimensions) + ", more than the maximum of " +
                              std::to_string(kMaxVectorDimensions));
    }
    auto [known, added] = dimensions_of.emplace(index.vector_attribute, index.dimensions);
    if (!added && known->second != index.dimensions) {
      return InvalidParameter("Vector indexes on attribute " + index.vector_attribute +
                              " must all have the same Dimensions");
    }
    int hashes = 0;
    std::set<std::string> schema_names;
    for (const SearchSchemaElement& element : index.search_schema) {
      if (!schema_names.insert(element.attribute_name).second) {
        return InvalidParameter("Duplicate attribute in SearchSchema of vector index " +
                                index.index_name + ": " + element.attribute_name);
      }
      if (element.type == SearchSchemaElement::Type::kHash && ++hashes > 1) {
        return InvalidParameter("SearchSchema of vector index " + index.index_name +
                                " has more than one HASH attribute");
      }
      const bool declared = std::any_of(
          definitions.begin(), definitions.end(),
          [&](const AttributeDefinition& d) { return d.attribute_name == element.attribute_name; });
      if (!declared) {
        return InvalidParameter("SearchSchema attribute " + element.attribute_name +
                                " of vector index " + index.index_name +
                                " is not defined in AttributeDefinitions");
      }
      if (element.attribute_name == index.vector_attribute) {
        return InvalidParameter("The vector attribute of vector index " + index.index_name +
                                " cannot be in its SearchSchema");
      }
    }
  }
  return Ok{};
}

}  // namespace ddbd
