#include "engine/catalog/item_writes.h"

#include <algorithm>
#include <cmath>

#include "engine/model/item_codec.h"

namespace ddbd {

Status CheckItemSize(size_t size) {
  if (size > kMaxItemSizeBytes) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  return Ok{};
}

void Project(const std::vector<DocumentPath>* projection, ReadItem& read) {
  if (projection == nullptr || !read.item) return;
  read.projected = ProjectItem(DecodeItem(read.item->blob), *projection);
  read.item.reset();
}

const Item& FoundItem::item() {
  if (!decoded_) decoded_ = current_ != nullptr ? DecodeItem(current_->blob) : Item();
  return *decoded_;
}

Item FoundItem::Take() {
  item();
  return std::move(*decoded_);
}

Status CheckCondition(const Condition* condition, bool return_item, FoundItem& found) {
  if (condition == nullptr) return Ok{};
  const Item& item = found.item();
  if (Evaluate(*condition, item)) return Ok{};
  std::shared_ptr<const Item> returned;
  if (return_item && found.exists()) returned = std::make_shared<const Item>(item);
  return Error::ConditionalCheckFailed(std::move(returned));
}

Result<std::vector<DocumentPath>> CheckUpdatePaths(const KeyShape& shape,
                                                   const std::vector<UpdateAction>& actions) {
  std::vector<DocumentPath> updated_paths;
  for (const UpdateAction& action : actions) {
    const std::string& top = action.path[0].name;
    if (top == shape.partition_name || top == shape.sort_name) {
      return Error::Validation(
          "One or more parameter values were invalid: Cannot update attribute " + top +
          ". This attribute is part of the key");
    }
    updated_paths.push_back(action.path);
  }
  return updated_paths;
}

namespace {

// The size DynamoDB gives an UpdateItem statement (measured against AWS: behaviours-to-match
// E6): the attributes it touches as they are written (names and values, keys never among them),
// 3, and per action 19 for a SET or ADD (20 for a SET through a list index) or 2 for a REMOVE or
// DELETE, whatever the value, its type, the name or an alias.
size_t StatementSize(const std::vector<UpdateAction>& actions, const Item& written) {
  size_t size = 3;
  std::vector<std::string_view> touched;
  for (const UpdateAction& action : actions) {
    const bool removes =
        action.kind == UpdateAction::Kind::kRemove || action.kind == UpdateAction::Kind::kDelete;
    const bool through_index = std::any_of(action.path.begin(), action.path.end(),
                                           [](const PathElement& e) { return e.is_index(); });
    size += removes ? 2 : through_index ? 20 : 19;
    const std::string_view name = action.path[0].name;
    if (std::find(touched.begin(), touched.end(), name) == touched.end()) touched.push_back(name);
  }
  for (const std::string_view name : touched) {
    if (const AttributeValue* value = FindAttribute(written, name)) {
      size += name.size() + ValueSize(*value);
    }
  }
  return size;
}

}  // namespace

Result<UpdatedItem> ApplyUpdateTo(const ItemTable& table, const Item& key,
                                  std::string_view key_bytes,
                                  const std::vector<UpdateAction>& actions, FoundItem& found,
                                  bool statement_sized) {
  UpdatedItem updated;
  // An update that only takes attributes away creates no item (and a path under a missing
  // attribute is then no error): test_update_item_boto3's missing-item test.
  const bool only_removals =
      !actions.empty() && std::all_of(actions.begin(), actions.end(), [](const UpdateAction& a) {
        return a.kind == UpdateAction::Kind::kRemove || a.kind == UpdateAction::Kind::kDelete;
      });
  if (!found.exists() && only_removals) {
    updated.writes = false;
    return updated;
  }
  if (found.exists()) updated.old_item = found.Take();
  updated.new_item = found.exists() ? updated.old_item : KeyAttributes(table.key_shape, key);
  if (Status applied = ApplyUpdate(actions, updated.new_item); !applied.ok()) {
    return applied.error();
  }
  if (table.stamp != nullptr) table.stamp->Apply(updated.new_item);  // version 2017.11.29
  const size_t size = ItemSize(updated.new_item);
  // The statement's size is at most the item's plus its per-action costs: measured only near
  // the limit.
  const bool near_limit = size + 3 + 20 * actions.size() > kMaxItemSizeBytes;
  if (size > kMaxItemSizeBytes || (statement_sized && near_limit &&
                                   StatementSize(actions, updated.new_item) > kMaxItemSizeBytes)) {
    return Error::Validation("Item size to update has exceeded the maximum allowed size");
  }
  if (NestsTooDeep(updated.new_item)) {
    return Error::Validation(std::string(kNestingTooDeep));
  }
  if (Status index_keys = table.indexes->CheckItem(updated.new_item); !index_keys.ok()) {
    return index_keys.error();
  }
  updated.stored = StoredItem{EncodeItem(updated.new_item), static_cast<uint32_t>(size)};
  updated.entries = table.indexes->EntriesFor(key_bytes, updated.stored);
  return updated;
}

void AddWriteCapacity(const Committed& change, const TableIndexes& indexes,
                      ConsumedCapacity& consumed) {
  consumed.table_units += TableWriteUnits(change);
  for (const IndexEntryChange& entry : change.indexes) {
    const TableIndex* index = indexes.BySlot(entry.index);
    if (index != nullptr) {
      consumed.AddIndex(index->name(), index->is_global(), IndexWriteUnits(entry));
    }
  }
}

ItemCollectionMetrics CollectionMetrics(const KeyShape& shape, const Item& item,
                                        int64_t collection_bytes) {
  ItemCollectionMetrics metrics;
  if (const AttributeValue* partition = FindAttribute(item, shape.partition_name)) {
    metrics.item_collection_key.emplace_back(shape.partition_name, *partition);
  }
  metrics.size_estimate_lower_gb =
      std::floor(static_cast<double>(collection_bytes) / static_cast<double>(int64_t{1} << 30));
  metrics.size_estimate_upper_gb = metrics.size_estimate_lower_gb + 1;
  return metrics;
}

ConsumedCapacity& TableConsumption(std::vector<ConsumedCapacity>& per_table,
                                   const std::string& table_name) {
  for (ConsumedCapacity& consumed : per_table) {
    if (consumed.table_name == table_name) return consumed;
  }
  ConsumedCapacity& added = per_table.emplace_back();
  added.table_name = table_name;
  return added;
}

void AddCollectionMetrics(
    std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table,
    const std::string& table_name, ItemCollectionMetrics metrics) {
  auto it = std::find_if(per_table.begin(), per_table.end(),
                         [&](const auto& known) { return known.first == table_name; });
  if (it == per_table.end()) it = per_table.insert(it, {table_name, {}});
  it->second.push_back(std::move(metrics));
}

Status StrongWriteClaim::BeginStrong(const std::shared_ptr<const StrongTable>& table,
                                     std::string_view key) {
  if (Status claimed = table->link->BeginStrongWrite(table->region, table->members, key);
      !claimed.ok()) {
    return claimed;
  }
  table_ = table;
  key_ = std::string(key);
  return Ok{};
}

void StrongWriteClaim::End() {
  table_->link->EndStrongWrite(table_->region, table_->members, key_);
}

}  // namespace ddbd
