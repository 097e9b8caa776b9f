#include "engine/storage/table_indexes.h"

#include <algorithm>
#include <optional>

#include "engine/model/item_codec.h"
#include "engine/model/key_codec.h"

namespace ddbd {
namespace {

constexpr size_t kMaxPartitionValueBytes = 2048;
constexpr size_t kMaxSortValueBytes = 1024;

// DynamoDB's refusal of a write whose value for an index key attribute the index cannot hold.
Status CheckIndexKeyValue(const TableIndex& index, const KeyPart& part, size_t max_size,
                          const Item& item) {
  const AttributeValue* value = FindAttribute(item, part.name);
  if (value == nullptr) return Ok{};  // sparse: the item is simply not in this index
  if (value->type != part.type) {
    return Error::Validation(
        "One or more parameter values were invalid: Type mismatch for Index Key " + part.name +
        " Expected: " + std::string(TypeName(part.type)) +
        " Actual: " + std::string(TypeName(value->type)) + " IndexName: " + index.name());
  }
  if (value->type != AttributeType::kN && value->scalar.empty()) {
    return Error::Validation(
        std::string("One or more parameter values are not valid. A value specified for a "
                    "secondary index key is not supported. The AttributeValue for a key "
                    "attribute cannot contain an empty ") +
        (value->type == AttributeType::kS ? "string" : "binary") +
        " value. IndexName: " + index.name() + ", IndexKey: " + part.name);
  }
  if (value->type != AttributeType::kN && value->scalar.size() > max_size) {
    return Error::Validation(
        "One or more parameter values were invalid: Size limit exceeded for Index Key " +
        part.name + " Actual Size: " + std::to_string(value->scalar.size()) +
        " bytes Max Size: " + std::to_string(max_size) + " bytes IndexName: " + index.name());
  }
  return Ok{};
}

// The index key bytes of the item `blob` holds (BeginKeyBytes, its partition values,
// EndPartition, its sort values), or none when the index does not hold the item: indexes are
// sparse, and hold only items with every key attribute of the key's type and, for strings and
// binaries, not empty and within DynamoDB's key size. Writes are refused otherwise (CheckItem);
// items stored before the index existed are skipped by its backfill instead. The bytes get
// `room` bytes of capacity, so what the caller appends needs no second allocation.
std::optional<std::string> IndexKeyBytes(const KeyParts& key, std::string_view blob, size_t room) {
  std::string bytes = BeginKeyBytes();
  bytes.reserve(room);
  for (const auto* parts : {&key.partition, &key.sort}) {
    const bool partition = parts == &key.partition;
    for (const KeyPart& part : *parts) {
      const std::optional<std::string_view> scalar =
          FindScalarAttribute(blob, part.name, part.type);
      if (!scalar) return std::nullopt;
      const size_t max_size = partition ? kMaxPartitionValueBytes : kMaxSortValueBytes;
      if (part.type != AttributeType::kN && (scalar->empty() || scalar->size() > max_size)) {
        return std::nullopt;
      }
      AppendKeyValue(bytes, part.type, *scalar);
    }
    if (partition) EndPartition(bytes);
  }
  return bytes;
}

}  // namespace

TableIndexes::TableIndexes(const TableDescription& table)
    : table_key_(KeyShape::Of(table.key_schema, table.attribute_definitions)),
      table_parts_(KeyParts::Of(table.key_schema, table.attribute_definitions)) {
  for (const IndexDescription& description : table.indexes) {
    if (description.index_status == TableStatus::kDeleting) continue;  // its data is gone
    TableIndex index;
    index.number = description.slot;
    index.description = description;
    index.key = KeyParts::Of(description.definition.key_schema, table.attribute_definitions);
    for (const KeyPart& part : index.key.partition) index.partition_types.push_back(part.type);
    indexes_.push_back(std::move(index));
  }
}

const TableIndex* TableIndexes::BySlot(size_t number) const {
  for (const TableIndex& index : indexes_) {
    if (index.number == number) return &index;
  }
  return nullptr;
}

size_t TableIndexes::PartitionLength(size_t slot, std::string_view entry_key) const {
  const TableIndex* index = BySlot(slot);
  return index == nullptr ? entry_key.size()
                          : PartitionPrefixLength(entry_key, index->partition_types);
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
    for (const auto* parts : {&index->key.partition, &index->key.sort}) {
      const size_t max_size =
          parts == &index->key.partition ? kMaxPartitionValueBytes : kMaxSortValueBytes;
      for (const KeyPart& part : *parts) {
        if (Status checked = CheckIndexKeyValue(*index, part, max_size, item); !checked.ok()) {
          return checked;
        }
      }
    }
  }
  return Ok{};
}

std::string TableIndexes::EntryKey(const TableIndex& index, const Item& item) const {
  std::string key = KeyBytes(index.key, item);
  const AttributeValue* table_sort =
      table_key_.has_sort_key() ? FindAttribute(item, table_key_.sort_name) : nullptr;
  key += EncodeTableKey(*FindAttribute(item, table_key_.partition_name), table_sort);
  return key;
}

bool TableIndexes::Keeps(const TableIndex& index, std::string_view name) const {
  if (index.projection_type() == ProjectionType::kAll) return true;
  if (name == table_key_.partition_name || name == table_key_.sort_name ||
      index.key.Contains(name)) {
    return true;
  }
  const auto& extra = index.description.definition.projection.non_key_attributes;
  return std::find(extra.begin(), extra.end(), name) != extra.end();
}

IndexEntries TableIndexes::EntriesFor(std::string_view table_key, std::string_view blob,
                                      uint32_t size, WholeItems whole_items) const {
  IndexEntries entries;
  entries.reserve(indexes_.size());
  for (const TableIndex& index : indexes_) {
    // Room for the table key after an index key of a few short values: one allocation.
    std::optional<std::string> key = IndexKeyBytes(index.key, blob, 64 + table_key.size());
    if (!key) continue;  // sparse: the item lacks a key attribute the index can hold
    *key += table_key;
    if (index.projection_type() == ProjectionType::kAll) {
      entries.push_back(
          {index.number, std::move(*key),
           StoredItem{whole_items == WholeItems::kCopied ? std::string(blob) : "", size}, true});
      continue;
    }
    std::vector<std::string_view> kept;
    kept.push_back(table_key_.partition_name);
    if (table_key_.has_sort_key()) kept.push_back(table_key_.sort_name);
    for (const auto* parts : {&index.key.partition, &index.key.sort}) {
      for (const KeyPart& part : *parts) kept.push_back(part.name);
    }
    for (const std::string& name : index.description.definition.projection.non_key_attributes) {
      kept.push_back(name);
    }
    std::string projected = ProjectAttributes(blob, kept);
    // Sized by DynamoDB's rules, which need the values: a projection keeps few, small ones.
    const auto projected_size = static_cast<uint32_t>(ItemSize(DecodeItem(projected)));
    entries.push_back(
        {index.number, std::move(*key), StoredItem{std::move(projected), projected_size}});
  }
  return entries;
}

}  // namespace ddbd
