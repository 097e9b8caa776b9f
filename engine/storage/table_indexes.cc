#include "engine/storage/table_indexes.h"

#include <algorithm>
#include <tuple>

#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"

namespace ddbd {
namespace {

KeyShape ShapeOf(const IndexDefinition& index, const TableDescription& table) {
  TableDescription keys;
  keys.key_schema = index.key_schema;
  keys.attribute_definitions = table.attribute_definitions;
  return KeyShape::Of(keys);
}

// Whether `value` can be an index key: of the key's type and, for strings and binaries, not
// empty and within DynamoDB's key size. Writes are refused otherwise (CheckItem); items stored
// before the index existed are skipped by its backfill instead.
bool UsableKey(const AttributeValue* value, AttributeType type, size_t max_size) {
  if (value == nullptr || value->type != type) return false;
  return type == AttributeType::kN || (!value->scalar.empty() && value->scalar.size() <= max_size);
}

// The index holds `item` only if every index key attribute is present and usable.
bool Holds(const TableIndex& index, const Item& item) {
  if (!UsableKey(FindAttribute(item, index.key.partition_name), index.key.partition_type, 2048)) {
    return false;
  }
  return !index.key.has_sort_key() ||
         UsableKey(FindAttribute(item, index.key.sort_name), index.key.sort_type, 1024);
}

}  // namespace

TableIndexes::TableIndexes(const TableDescription& table) : table_key_(KeyShape::Of(table)) {
  for (const IndexDescription& description : table.indexes) {
    if (description.index_status == TableStatus::kDeleting) continue;  // its data is gone
    TableIndex index;
    index.number = description.slot;
    index.description = description;
    index.key = ShapeOf(description.definition, table);
    indexes_.push_back(std::move(index));
  }
}

const TableIndex* TableIndexes::BySlot(size_t number) const {
  for (const TableIndex& index : indexes_) {
    if (index.number == number) return &index;
  }
  return nullptr;
}

const TableIndex* TableIndexes::Find(std::string_view name) const {
  for (const TableIndex& index : indexes_) {
    if (index.name() == name) return &index;
  }
  return nullptr;
}

Status TableIndexes::CheckItem(const Item& item) const {
  std::vector<const TableIndex*> by_name;
  for (const TableIndex& index : indexes_) by_name.push_back(&index);
  std::sort(by_name.begin(), by_name.end(),
            [](const TableIndex* a, const TableIndex* b) { return a->name() < b->name(); });
  for (const TableIndex* index : by_name) {
    for (const auto& [name, type, max_size] :
         {std::tuple{index->key.partition_name, index->key.partition_type, size_t{2048}},
          std::tuple{index->key.sort_name, index->key.sort_type, size_t{1024}}}) {
      if (name.empty()) continue;
      const AttributeValue* value = FindAttribute(item, name);
      if (value == nullptr) continue;  // sparse: the item is simply not in this index
      if (value->type != type) {
        return Error::Validation(
            "One or more parameter values were invalid: Type mismatch for Index Key " + name +
            " Expected: " + std::string(TypeName(type)) +
            " Actual: " + std::string(TypeName(value->type)) + " IndexName: " + index->name());
      }
      if (value->type != AttributeType::kN && value->scalar.empty()) {
        return Error::Validation(
            std::string("One or more parameter values are not valid. A value specified for a "
                        "secondary index key is not supported. The AttributeValue for a key "
                        "attribute cannot contain an empty ") +
            (value->type == AttributeType::kS ? "string" : "binary") +
            " value. IndexName: " + index->name() + ", IndexKey: " + name);
      }
      if (value->type != AttributeType::kN && value->scalar.size() > max_size) {
        return Error::Validation(
            "One or more parameter values were invalid: Size limit exceeded for Index Key " + name +
            " Actual Size: " + std::to_string(value->scalar.size()) +
            " bytes Max Size: " + std::to_string(max_size) + " bytes IndexName: " + index->name());
      }
    }
  }
  return Ok{};
}

std::string TableIndexes::EntryKey(const TableIndex& index, const Item& item) const {
  const AttributeValue* sort =
      index.key.has_sort_key() ? FindAttribute(item, index.key.sort_name) : nullptr;
  std::string key = EncodeTableKey(*FindAttribute(item, index.key.partition_name), sort);
  const AttributeValue* table_sort =
      table_key_.has_sort_key() ? FindAttribute(item, table_key_.sort_name) : nullptr;
  key += EncodeTableKey(*FindAttribute(item, table_key_.partition_name), table_sort);
  return key;
}

Item TableIndexes::Project(const TableIndex& index, const Item& item) const {
  if (index.projection_type() == ProjectionType::kAll) return item;
  Item projected;
  for (const auto& [name, value] : item) {
    if (Keeps(index, name)) projected.emplace_back(name, value);
  }
  return projected;
}

bool TableIndexes::Keeps(const TableIndex& index, std::string_view name) const {
  if (index.projection_type() == ProjectionType::kAll) return true;
  if (name == table_key_.partition_name || name == table_key_.sort_name ||
      name == index.key.partition_name || name == index.key.sort_name) {
    return true;
  }
  const auto& extra = index.description.definition.projection.non_key_attributes;
  return std::find(extra.begin(), extra.end(), name) != extra.end();
}

IndexEntries TableIndexes::EntriesFor(const Item& item) const {
  IndexEntries entries;
  for (const TableIndex& index : indexes_) {
    if (!Holds(index, item)) continue;
    Item projected = Project(index, item);
    const auto size = static_cast<uint32_t>(ItemSize(projected));
    entries.push_back(
        {index.number, EntryKey(index, item), StoredItem{EncodeItem(projected), size}});
  }
  return entries;
}

}  // namespace ddbd
