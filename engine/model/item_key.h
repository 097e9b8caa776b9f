// A table's primary key as item operations need it, and DynamoDB's checks of the key attributes
// of an item (PutItem) or of a Key parameter (GetItem, DeleteItem, batches).
#pragma once

#include <string>

#include "engine/catalog/table_schema.h"
#include "engine/error.h"
#include "engine/model/attribute_value.h"

namespace ddbd {

struct KeyShape {
  std::string partition_name;
  AttributeType partition_type = AttributeType::kS;
  std::string sort_name;  // empty: no sort key
  AttributeType sort_type = AttributeType::kS;

  static KeyShape Of(const TableDescription& table);
  bool has_sort_key() const { return !sort_name.empty(); }
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

}  // namespace ddbd
