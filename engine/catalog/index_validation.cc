#include "engine/catalog/index_validation.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/catalog/parameter_checks.h"
#include "engine/catalog/table_validation.h"

namespace ddbd {
namespace {

constexpr size_t kMaxProjectedAttributes = 100;
constexpr size_t kMaxKeyAttributesPerPart = 4;  // HASH, and RANGE, attributes of a global index

void AddUnique(std::vector<std::string>& names, const std::string& name) {
  if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

// With indexes, DynamoDB reports missing and unused attribute definitions by listing them.
Status CheckDefinitionsCoverKeys(const CreateTableArgs& args) {
  std::vector<std::string> defined;
  for (const AttributeDefinition& definition : args.attribute_definitions) {
    AddUnique(defined, definition.attribute_name);
  }
  std::vector<std::string> used;
  for (const KeySchemaElement& element : args.key_schema) AddUnique(used, element.attribute_name);
  for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
    for (const IndexDefinition& index : *indexes) {
      for (const KeySchemaElement& element : index.key_schema)
        AddUnique(used, element.attribute_name);
    }
  }
  std::vector<std::string> missing;
  for (const std::string& name : used) {
    if (std::find(defined.begin(), defined.end(), name) == defined.end()) missing.push_back(name);
  }
  if (!missing.empty()) {
    return InvalidParameter(
        "Some index key attributes are not defined in AttributeDefinitions. Keys: " +
        ListedNames(missing) + ", AttributeDefinitions: " + ListedNames(defined));
  }
  if (defined.size() != used.size()) {
    return InvalidParameter("Some AttributeDefinitions are not used. AttributeDefinitions: " +
                            ListedNames(defined) + ", keys used: " + ListedNames(used));
  }
  return Ok{};
}

Status CheckLocalIndex(const CreateTableArgs& args, const IndexDefinition& index) {
  const std::string& table_hash = args.key_schema[0].attribute_name;
  if (index.key_schema[0].attribute_name != table_hash) {
    return InvalidParameter(
        "Index KeySchema does not have the same leading hash key as table KeySchema "
        "for index: " +
        index.index_name + ". index hash key: " + index.key_schema[0].attribute_name +
        ", table hash key: " + table_hash);
  }
  if (index.key_schema.size() != 2) {
    return InvalidParameter("Index KeySchema does not have a range key for index: " +
                            index.index_name);
  }
  return Ok{};
}

// A global index's key may have up to four partition attributes, then up to four sort attributes
// (multi-attribute keys).
Status CheckGlobalKeyTypes(const std::vector<KeySchemaElement>& key_schema) {
  if (key_schema[0].key_type != KeyType::kHash) {
    return Error::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  size_t hash = 0;
  size_t range = 0;
  for (const KeySchemaElement& element : key_schema) {
    if (element.key_type == KeyType::kRange) {
      ++range;
    } else if (range > 0) {
      return InvalidParameter(
          "All HASH key attributes must precede RANGE key attributes in the KeySchema");
    } else {
      ++hash;
    }
  }
  if (hash > kMaxKeyAttributesPerPart) {
    return InvalidParameter(
        "The KeySchema exceeds the maximum allowed number of HASH key attributes");
  }
  if (range > kMaxKeyAttributesPerPart) {
    return InvalidParameter(
        "The KeySchema exceeds the maximum allowed number of RANGE key attributes");
  }
  return Ok{};
}

Status CheckGlobalThroughput(const CreateTableArgs& args, const IndexDefinition& index) {
  const bool on_demand = args.billing_mode == BillingMode::kPayPerRequest;
  if (on_demand && index.provisioned_throughput) {
    return InvalidParameter("ProvisionedThroughput should not be specified for index: " +
                            index.index_name + " when BillingMode is PAY_PER_REQUEST");
  }
  if (!on_demand && !index.provisioned_throughput) {
    return InvalidParameter("ProvisionedThroughput is not specified for index: " +
                            index.index_name);
  }
  if (index.on_demand_throughput) {
    if (Status checked = CheckOnDemandThroughput(
            *index.on_demand_throughput, args.billing_mode.value_or(BillingMode::kProvisioned),
            false, "index");
        !checked.ok()) {
      return checked;
    }
  }
  auto warm =
      CreatedIndexWarmThroughput(args.billing_mode.value_or(BillingMode::kProvisioned), index);
  if (!warm.ok()) return warm.error();
  return Ok{};
}

}  // namespace

Status GlobalIndexLimitExceeded() {
  return Error::Validation("GlobalSecondaryIndex count exceeds the per-table limit of " +
                           std::to_string(kMaxGlobalIndexes));
}

namespace {

Status CheckNoRepeatedKey(const IndexDefinition& index) {
  const auto& keys = index.key_schema;
  for (auto it = keys.begin(); it != keys.end(); ++it) {
    const auto same_name = [&](const KeySchemaElement& other) {
      return other.attribute_name == it->attribute_name;
    };
    if (std::find_if(keys.begin(), it, same_name) != it) {
      return Error::Validation("The KeySchema contains multiple key attributes with the same name");
    }
  }
  return Ok{};
}

// An attribute defined twice is refused as for a table without indexes, also when only an index
// uses it (behaviours-to-match B6, recorded against AWS).
Status CheckNoRepeatedDefinition(const CreateTableArgs& args) {
  std::set<std::string> defined;
  for (const AttributeDefinition& definition : args.attribute_definitions) {
    if (!defined.insert(definition.attribute_name).second) {
      return Error::Validation("Attribute Name is duplicated: " + definition.attribute_name);
    }
  }
  return Ok{};
}

}  // namespace

Status CheckIndexKeySchema(const IndexDefinition& index, bool global) {
  if (!global) {
    if (Status types = CheckKeyTypes(index.key_schema); !types.ok()) return types;
  } else if (Status types = CheckGlobalKeyTypes(index.key_schema); !types.ok()) {
    return types;
  }
  return CheckNoRepeatedKey(index);
}

Status CheckProjection(const IndexDefinition& index) {
  const Projection& projection = index.projection;
  const bool has_non_key = !projection.non_key_attributes.empty();
  if (projection.projection_type == ProjectionType::kAll && has_non_key) {
    return InvalidParameter("ProjectionType is ALL, but NonKeyAttributes is specified");
  }
  if (projection.projection_type == ProjectionType::kKeysOnly && has_non_key) {
    return InvalidParameter("ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified");
  }
  if (projection.projection_type == ProjectionType::kInclude && !has_non_key) {
    return InvalidParameter("ProjectionType is INCLUDE, but NonKeyAttributes is not specified");
  }
  const auto& names = projection.non_key_attributes;
  for (auto it = names.begin(); it != names.end(); ++it) {
    if (std::find(names.begin(), it, *it) != it) {
      return InvalidParameter("Duplicate element in NonKeyAttributes: " + *it);
    }
  }
  return Ok{};
}

Status ValidateIndexes(const CreateTableArgs& args) {
  if (args.local_secondary_indexes.empty() && args.global_secondary_indexes.empty()) return Ok{};
  if (args.global_secondary_indexes.size() > kMaxGlobalIndexes) return GlobalIndexLimitExceeded();
  if (Status repeated = CheckNoRepeatedDefinition(args); !repeated.ok()) return repeated;
  // An index key naming one attribute twice comes before unused definitions (B6, recorded).
  for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
    for (const IndexDefinition& index : *indexes) {
      if (Status repeated = CheckNoRepeatedKey(index); !repeated.ok()) return repeated;
    }
  }
  if (Status defined = CheckDefinitionsCoverKeys(args); !defined.ok()) return defined;
  if (!args.local_secondary_indexes.empty() && args.key_schema.size() < 2) {
    return InvalidParameter(
        "Table KeySchema does not have a range key, which is required when specifying "
        "a LocalSecondaryIndex");
  }
  std::set<std::string> names;
  size_t projected = 0;
  for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
    const bool local = indexes == &args.local_secondary_indexes;
    for (const IndexDefinition& index : *indexes) {
      if (!names.insert(index.index_name).second) {
        return InvalidParameter("Duplicate index name: " + index.index_name);
      }
      if (Status keys = CheckIndexKeySchema(index, !local); !keys.ok()) return keys;
      if (Status projection = CheckProjection(index); !projection.ok()) return projection;
      if (Status scoped = local ? CheckLocalIndex(args, index) : CheckGlobalThroughput(args, index);
          !scoped.ok()) {
        return scoped;
      }
      projected += index.projection.non_key_attributes.size();
    }
  }
  if (projected > kMaxProjectedAttributes) {
    return InvalidParameter(
        "The sum of the number of NonKeyAttributes across all secondary indexes "
        "exceeds the limit of 100");
  }
  return Ok{};
}

}  // namespace ddbd
