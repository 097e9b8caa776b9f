// A key schema as DynamoDB states it: the key attributes (HASH, then RANGE) and the scalar types
// their AttributeDefinitions give them. Values of a table's description (engine/api/tables.h) that
// item keys (engine/model/item_key.h) are read by.
#pragma once

#include <string>

namespace ddbd {

enum class ScalarAttributeType { kS, kN, kB };
enum class KeyType { kHash, kRange };

struct AttributeDefinition {
  std::string attribute_name;
  ScalarAttributeType attribute_type;
};

struct KeySchemaElement {
  std::string attribute_name;
  KeyType key_type;
};

}  // namespace ddbd
