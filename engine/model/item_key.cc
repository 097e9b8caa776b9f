#include "engine/model/item_key.h"

#include "engine/model/key_codec.h"

namespace ddbd {
namespace {

constexpr size_t kMaxPartitionKeyBytes = 2048;
constexpr size_t kMaxSortKeyBytes = 1024;
constexpr const char* kSchemaMismatch = "The provided key element does not match the schema";

// Emptiness and size limits, shared by items and Key parameters.
Status CheckKeyValue(const std::string& name, const AttributeValue& value, bool partition) {
  if (value.type != AttributeType::kN && value.scalar.empty()) {
    return Error::Validation(
        std::string("One or more parameter values are not valid. The AttributeValue for a key "
                    "attribute cannot contain an empty ") +
        (value.type == AttributeType::kS ? "string" : "binary") + " value. Key: " + name);
  }
  if (partition && value.scalar.size() > kMaxPartitionKeyBytes) {
    return Error::Validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
        "size limit of 2048 bytes");
  }
  if (!partition && value.scalar.size() > kMaxSortKeyBytes) {
    return Error::Validation(
        "One or more parameter values were invalid: Aggregated size of all range keys has "
        "exceeded the size limit of 1024 bytes");
  }
  return Ok{};
}

// The item's value of key attribute `name`, checked: found once, as the key's encoding uses it.
Result<const AttributeValue*> CheckItemKeyAttribute(const Item& item, const std::string& name,
                                                    AttributeType type, bool partition,
                                                    KeyMismatchStyle style) {
  const AttributeValue* value = FindAttribute(item, name);
  if (value == nullptr) {
    return Error::Validation("One or more parameter values were invalid: Missing the key " + name +
                             " in the item");
  }
  if (value->type != type) {
    if (style == KeyMismatchStyle::kSchemaMismatch) return Error::Validation(kSchemaMismatch);
    return Error::Validation("One or more parameter values were invalid: Type mismatch for key " +
                             name + " expected: " + std::string(TypeName(type)) +
                             " actual: " + std::string(TypeName(value->type)));
  }
  if (Status checked = CheckKeyValue(name, *value, partition); !checked.ok()) {
    return checked.error();
  }
  return value;
}

AttributeType DefinedType(const std::vector<AttributeDefinition>& definitions,
                          const std::string& name) {
  for (const AttributeDefinition& definition : definitions) {
    if (definition.attribute_name == name) return ToAttributeType(definition.attribute_type);
  }
  return AttributeType::kS;
}

}  // namespace

AttributeType ToAttributeType(ScalarAttributeType type) {
  switch (type) {
    case ScalarAttributeType::kS:
      return AttributeType::kS;
    case ScalarAttributeType::kN:
      return AttributeType::kN;
    case ScalarAttributeType::kB:
      return AttributeType::kB;
  }
  return AttributeType::kS;
}

KeyParts KeyParts::Of(const std::vector<KeySchemaElement>& key_schema,
                      const std::vector<AttributeDefinition>& definitions) {
  KeyParts key;
  for (const KeySchemaElement& element : key_schema) {
    (element.key_type == KeyType::kHash ? key.partition : key.sort)
        .push_back({element.attribute_name, DefinedType(definitions, element.attribute_name)});
  }
  return key;
}

bool KeyParts::Contains(std::string_view name) const {
  for (const auto* parts : {&partition, &sort}) {
    for (const KeyPart& part : *parts) {
      if (part.name == name) return true;
    }
  }
  return false;
}

std::string KeyBytes(const KeyParts& key, const Item& item) {
  std::string bytes = BeginKeyBytes();
  for (const KeyPart& part : key.partition) AppendKeyValue(bytes, *FindAttribute(item, part.name));
  EndPartition(bytes);
  for (const KeyPart& part : key.sort) AppendKeyValue(bytes, *FindAttribute(item, part.name));
  return bytes;
}

KeyShape KeyShape::Of(const std::vector<KeySchemaElement>& key_schema,
                      const std::vector<AttributeDefinition>& definitions) {
  KeyShape shape;
  for (const KeySchemaElement& element : key_schema) {
    const AttributeType type = DefinedType(definitions, element.attribute_name);
    if (element.key_type == KeyType::kHash) {
      shape.partition_name = element.attribute_name;
      shape.partition_type = type;
    } else {
      shape.sort_name = element.attribute_name;
      shape.sort_type = type;
    }
  }
  return shape;
}

Result<std::string> ItemKeyBytes(const KeyShape& shape, const Item& item, KeyMismatchStyle style) {
  auto partition =
      CheckItemKeyAttribute(item, shape.partition_name, shape.partition_type, true, style);
  if (!partition.ok()) return partition.error();
  const AttributeValue* sort = nullptr;
  if (shape.has_sort_key()) {
    auto checked = CheckItemKeyAttribute(item, shape.sort_name, shape.sort_type, false, style);
    if (!checked.ok()) return checked.error();
    sort = checked.value();
  }
  return EncodeTableKey(*partition.value(), sort);
}

Result<std::string> LookupKeyBytes(const KeyShape& shape, const Item& key) {
  // Emptiness is reported by name before the schema comparison, as DynamoDB does.
  for (const auto& [name, value] : key) {
    const bool is_key = name == shape.partition_name || name == shape.sort_name;
    if (is_key && (value.type == AttributeType::kS || value.type == AttributeType::kB) &&
        value.scalar.empty()) {
      if (Status empty = CheckKeyValue(name, value, true); !empty.ok()) return empty.error();
    }
  }
  const size_t expected = shape.has_sort_key() ? 2 : 1;
  const AttributeValue* partition = FindAttribute(key, shape.partition_name);
  const AttributeValue* sort = shape.has_sort_key() ? FindAttribute(key, shape.sort_name) : nullptr;
  if (key.size() != expected || partition == nullptr || partition->type != shape.partition_type ||
      (shape.has_sort_key() && (sort == nullptr || sort->type != shape.sort_type))) {
    return Error::Validation(kSchemaMismatch);
  }
  if (Status checked = CheckKeyValue(shape.partition_name, *partition, true); !checked.ok()) {
    return checked.error();
  }
  if (sort != nullptr) {
    if (Status checked = CheckKeyValue(shape.sort_name, *sort, false); !checked.ok()) {
      return checked.error();
    }
  }
  return EncodeTableKey(*partition, sort);
}

Item KeyAttributes(const KeyShape& shape, const Item& item) {
  Item key;
  if (const AttributeValue* partition = FindAttribute(item, shape.partition_name)) {
    key.emplace_back(shape.partition_name, *partition);
  }
  if (shape.has_sort_key()) {
    if (const AttributeValue* sort = FindAttribute(item, shape.sort_name)) {
      key.emplace_back(shape.sort_name, *sort);
    }
  }
  return key;
}

}  // namespace ddbd
