#include "engine/storage/table_indexes.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
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

// Whether an index can hold `scalar` as the value of its key attribute `part`: a number always,
// a string or binary when it is not empty and within `max_size` bytes (DynamoDB's key sizes).
bool ValueFits(const KeyPart& part, std::string_view scalar, size_t max_size) {
  return part.type == AttributeType::kN || (!scalar.empty() && scalar.size() <= max_size);
}

// The partition part of recent index keys of one partition value (the hash, then the value), by
// the indexes' set, the index and the value: an index key such as a status or an age has few
// values, each met again and again (a start's index build meets each a million times over), and
// its hash and a number's ordered bytes were a fifth of what an entry cost. One per thread,
// direct-mapped; `owner` is the TableIndexes' serial, never reused, so a slot filled for an
// index set since gone never answers for another.
struct PartitionBytesMemo {
  uint64_t owner = 0;
  size_t index = 0;
  std::string value;
  std::string bytes;
};
constexpr size_t kPartitionMemoSlots = 64;
// Longer values (names, addresses, ids) are rarely met twice: computed without the memo.
constexpr size_t kMemoValueBytes = 32;
thread_local std::array<PartitionBytesMemo, kPartitionMemoSlots> partition_memo;

// A value's slot: its last 8 bytes (where values of one key differ most: ids, counters,
// numbers), its length and the index, mixed. A collision only costs a miss.
size_t MemoSlot(std::string_view value, size_t index) {
  uint64_t word = 0;
  const size_t n = std::min<size_t>(value.size(), 8);
  std::memcpy(&word, value.data() + value.size() - n, n);
  const uint64_t mixed =
      (word ^ (uint64_t{value.size()} << 48) ^ (uint64_t{index} << 56)) * 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(mixed >> 58);  // 64 slots
}

uint64_t NewSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

// Sets `bytes` to the index key bytes of the item `blob` holds (BeginKeyBytes, its partition
// values, EndPartition, its sort values), keeping its room, or returns false when the index does
// not hold the item: indexes are sparse, and hold only items with every key attribute of the
// key's type and, for strings and binaries, not empty and within DynamoDB's key size. Writes
// are refused otherwise (CheckItem); items stored before the index existed are skipped by its
// backfill instead. `room`: bytes the caller appends after (one allocation at most).
bool IndexKeyInto(uint64_t owner, const TableIndex& index, std::string_view blob, size_t room,
                  std::string& bytes) {
  const KeyParts& key = index.key;
  std::optional<std::string_view> single;  // the value of a one-attribute partition key
  if (key.partition.size() == 1) {
    const KeyPart& part = key.partition.front();
    single = FindScalarAttribute(blob, part.name, part.type);
    if (!single || !ValueFits(part, *single, kMaxPartitionValueBytes)) return false;
  }
  if (single && single->size() <= kMemoValueBytes) {
    const std::string_view value = *single;
    PartitionBytesMemo& memo = partition_memo[MemoSlot(value, index.number)];
    if (memo.owner != owner || memo.index != index.number || memo.value != value) {
      memo.owner = owner;
      memo.index = index.number;
      memo.value.assign(value);
      memo.bytes.assign(8, '\0');
      AppendKeyValue(memo.bytes, key.partition.front().type, value);
      EndPartition(memo.bytes);
    }
    bytes.reserve(memo.bytes.size() + room + 16);  // + a short sort value or two
    bytes.assign(memo.bytes);
  } else {
    bytes.assign(8, '\0');
    bytes.reserve(64 + room);
    if (single) {
      AppendKeyValue(bytes, key.partition.front().type, *single);
    } else {
      for (const KeyPart& part : key.partition) {
        const std::optional<std::string_view> scalar =
            FindScalarAttribute(blob, part.name, part.type);
        if (!scalar || !ValueFits(part, *scalar, kMaxPartitionValueBytes)) return false;
        AppendKeyValue(bytes, part.type, *scalar);
      }
    }
    EndPartition(bytes);
  }
  for (const KeyPart& part : key.sort) {
    const std::optional<std::string_view> scalar = FindScalarAttribute(blob, part.name, part.type);
    if (!scalar || !ValueFits(part, *scalar, kMaxSortValueBytes)) return false;
    AppendKeyValue(bytes, part.type, *scalar);
  }
  return true;
}

}  // namespace

TableIndexes::TableIndexes(const TableDescription& table)
    : serial_(NewSerial()),
      table_key_(KeyShape::Of(table.key_schema, table.attribute_definitions)),
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

void TableIndexes::EntriesInto(std::string_view table_key, std::string_view blob, uint32_t size,
                               WholeItems whole_items, IndexEntries& entries) const {
  size_t count = 0;
  for (const TableIndex& index : indexes_) {
    if (count == entries.size()) entries.emplace_back();
    IndexEntry& entry = entries[count];
    if (!IndexKeyInto(serial_, index, blob, table_key.size(), entry.key)) continue;  // sparse
    entry.key += table_key;
    entry.index = index.number;
    ++count;
    entry.whole_item = index.projection_type() == ProjectionType::kAll;
    if (entry.whole_item) {
      if (whole_items == WholeItems::kCopied) {
        entry.item.blob.assign(blob);
      } else {
        entry.item.blob.clear();
      }
      entry.item.size_bytes = size;
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
    entry.item.blob = ProjectAttributes(blob, kept);
    // Sized by DynamoDB's rules, which need the values: a projection keeps few, small ones.
    entry.item.size_bytes = static_cast<uint32_t>(ItemSize(DecodeItem(entry.item.blob)));
  }
  entries.resize(count);
}

}  // namespace ddbd
