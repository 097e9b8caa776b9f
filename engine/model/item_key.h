// A table's primary key as item operations need it, and DynamoDB's checks of the key attributes
// of an item (PutItem) or of a Key parameter (GetItem, DeleteItem, batches).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "engine/model/key_schema.h"

namespace ddbd {

// The value type a key attribute's declared scalar type stands for.
AttributeType ToAttributeType(ScalarAttributeType type);

struct KeyShape {
  std::string partition_name;
  AttributeType partition_type = AttributeType::kS;
  std::string sort_name;  // empty: no sort key
  AttributeType sort_type = AttributeType::kS;

  static KeyShape Of(const std::vector<KeySchemaElement>& key_schema,
                     const std::vector<AttributeDefinition>& definitions);
  bool has_sort_key() const { return !sort_name.empty(); }
};

// One attribute of a key schema, with its type.
struct KeyPart {
  std::string name;
  AttributeType type = AttributeType::kS;
};

// A key schema as reads and index entries use it. A table's (and a local index's) has one
// partition attribute and at most one sort attribute; a global index's up to four of each
// (multi-attribute keys), in key-schema order: items order by each sort attribute in turn.
struct KeyParts {
  std::vector<KeyPart> partition;
  std::vector<KeyPart> sort;

  static KeyParts Of(const std::vector<KeySchemaElement>& key_schema,
                     const std::vector<AttributeDefinition>& definitions);
  // Whether `name` is one of the key's attributes.
  bool Contains(std::string_view name) const;
};

// How a wrongly typed key attribute in an item is reported: PutItem names the key and types;
// BatchWriteItem says the key does not match the schema.
enum class KeyMismatchStyle { kTypeMismatch, kSchemaMismatch };

// The table key bytes of an item to be written. ValidationException for a missing, mistyped,
// empty or oversized key attribute.
Result<std::string> ItemKeyBytes(const KeyShape& shape, const Item& item, KeyMismatchStyle style);

// The table key bytes of a Key parameter, which must hold exactly the key attributes.
// ValidationException "The provided key element does not match the schema" otherwise.
Result<std::string> LookupKeyBytes(const KeyShape& shape, const Item& key);

// The key attributes of `item`, in key-schema order.
Item KeyAttributes(const KeyShape& shape, const Item& item);

// The bytes `item` orders by under `key` (every attribute present and of its type): the
// partition hash, the partition values, then the sort values.
std::string KeyBytes(const KeyParts& key, const Item& item);

}  // namespace ddbd
