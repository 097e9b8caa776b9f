// Engine's item operations: PutItem, GetItem, DeleteItem and the two batch operations.
#include <algorithm>
#include <mutex>
#include <set>
#include <utility>

#include "engine/engine.h"
#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

Error TableNotFound() { return Error::ResourceNotFound("Requested resource not found"); }

Status CheckItemSize(size_t size) {
  if (size > kMaxItemSizeBytes) {
    return Error::Validation("Item size has exceeded the maximum allowed size");
  }
  return Ok{};
}

std::optional<Item> Decoded(const std::optional<StoredItem>& stored) {
  if (!stored) return std::nullopt;
  return DecodeItem(stored->blob);
}

// Checks the write's condition against the current item, if there is a condition.
Status CheckCondition(const Engine::WriteOptions& options, const std::string_view* current_blob) {
  if (options.condition == nullptr) return Ok{};
  const Item current = current_blob != nullptr ? DecodeItem(*current_blob) : Item();
  if (Evaluate(*options.condition, current)) return Ok{};
  std::shared_ptr<const Item> returned;
  if (options.return_item_on_condition_failure && current_blob != nullptr) {
    returned = std::make_shared<const Item>(current);
  }
  return Error::ConditionalCheckFailed(std::move(returned));
}

}  // namespace

Result<Engine::ItemTable> Engine::FindItemTable(std::string_view table_name) const {
  const int64_t now_ms = clock_.NowMs();
  std::shared_lock lock(mutex_);
  const TableEntry* entry = FindLocked(table_name, now_ms);
  if (entry == nullptr) return TableNotFound();
  // Read together under mutex_, which UpdateTable holds while it changes both.
  return ItemTable{entry->items, entry->key_shape, entry->indexes, entry->items->index_generation(),
                   now_ms < entry->transition_done_ms};
}

Result<std::optional<Item>> Engine::PutItem(std::string_view table_name, const Item& item,
                                            const WriteOptions& options) {
  // The size limit is checked before the table is looked up, as DynamoDB does.
  const size_t size = ItemSize(item);
  if (Status sized = CheckItemSize(size); !sized.ok()) return sized.error();
  auto table = FindItemTable(table_name);
  if (!table.ok()) return table.error();
  auto key = ItemKeyBytes(table.value().key_shape, item, KeyMismatchStyle::kTypeMismatch);
  if (!key.ok()) return key.error();
  const TableIndexes& indexes = *table.value().indexes;
  if (Status index_keys = indexes.CheckItem(item); !index_keys.ok()) return index_keys.error();
  const IndexEntries entries = indexes.EntriesFor(item);
  StoredItem stored{EncodeItem(item), static_cast<uint32_t>(size)};
  std::optional<StoredItem> old;
  if (options.condition == nullptr) {
    auto put =
        table.value().items->Put(key.value(), stored, entries, table.value().index_generation);
    if (!put.ok()) return put.error();
    old = std::move(put).value();
  } else {
    auto applied = table.value().items->Apply(
        key.value(), [&](const std::string_view* current) -> Result<TableItems::Write> {
          if (Status checked = CheckCondition(options, current); !checked.ok()) {
            return checked.error();
          }
          return TableItems::Write{TableItems::Write::Kind::kPut, stored, entries,
                                   table.value().index_generation};
        });
    if (!applied.ok()) return applied.error();
    old = std::move(applied).value();
  }
  return options.return_old ? Decoded(old) : std::nullopt;
}

Result<std::optional<StoredItem>> Engine::GetItem(std::string_view table_name,
                                                  const Item& key) const {
  auto table = FindItemTable(table_name);
  if (!table.ok()) return table.error();
  auto key_bytes = LookupKeyBytes(table.value().key_shape, key);
  if (!key_bytes.ok()) return key_bytes.error();
  return table.value().items->Get(key_bytes.value());
}

Result<std::optional<Item>> Engine::DeleteItem(std::string_view table_name, const Item& key,
                                               const WriteOptions& options) {
  auto table = FindItemTable(table_name);
  if (!table.ok()) return table.error();
  auto key_bytes = LookupKeyBytes(table.value().key_shape, key);
  if (!key_bytes.ok()) return key_bytes.error();
  std::optional<StoredItem> old;
  if (options.condition == nullptr) {
    old = table.value().items->Erase(key_bytes.value());
  } else {
    auto applied = table.value().items->Apply(
        key_bytes.value(), [&](const std::string_view* current) -> Result<TableItems::Write> {
          if (Status checked = CheckCondition(options, current); !checked.ok()) {
            return checked.error();
          }
          return TableItems::Write{TableItems::Write::Kind::kDelete, {}, {}};
        });
    if (!applied.ok()) return applied.error();
    old = std::move(applied).value();
  }
  return options.return_old ? Decoded(old) : std::nullopt;
}

Result<std::optional<Item>> Engine::UpdateItem(std::string_view table_name, const Item& key,
                                               const std::vector<UpdateAction>& actions,
                                               const WriteOptions& options, UpdateReturn returns) {
  auto table = FindItemTable(table_name);
  if (!table.ok()) return table.error();
  const KeyShape& shape = table.value().key_shape;
  auto key_bytes = LookupKeyBytes(shape, key);
  if (!key_bytes.ok()) return key_bytes.error();
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
  std::optional<Item> returned;
  auto applied = table.value().items->Apply(
      key_bytes.value(), [&](const std::string_view* current) -> Result<TableItems::Write> {
        if (Status checked = CheckCondition(options, current); !checked.ok()) {
          return checked.error();
        }
        // An update that only takes attributes away creates no item (and a path under a missing
        // attribute is then no error): test_update_item_boto3's missing-item test.
        const bool only_removals =
            !actions.empty() && std::all_of(actions.begin(), actions.end(), [](const auto& a) {
              return a.kind == UpdateAction::Kind::kRemove || a.kind == UpdateAction::Kind::kDelete;
            });
        if (current == nullptr && only_removals) {
          return TableItems::Write{TableItems::Write::Kind::kDelete, {}, {}};
        }
        Item old_item = current != nullptr ? DecodeItem(*current) : Item();
        Item new_item = current != nullptr ? old_item : KeyAttributes(shape, key);
        if (Status updated = ApplyUpdate(actions, new_item); !updated.ok()) return updated.error();
        const size_t size = ItemSize(new_item);
        if (size > kMaxItemSizeBytes) {
          return Error::Validation("Item size to update has exceeded the maximum allowed size");
        }
        if (Status index_keys = table.value().indexes->CheckItem(new_item); !index_keys.ok()) {
          return index_keys.error();
        }
        switch (returns) {
          case UpdateReturn::kNone:
            break;
          case UpdateReturn::kAllOld:
            if (current != nullptr) returned = old_item;
            break;
          case UpdateReturn::kUpdatedOld:
            returned = ProjectItem(old_item, updated_paths);
            break;
          case UpdateReturn::kAllNew:
            returned = new_item;
            break;
          case UpdateReturn::kUpdatedNew:
            returned = ProjectItem(new_item, updated_paths);
            break;
        }
        if (returned && returned->empty()) returned.reset();
        return TableItems::Write{TableItems::Write::Kind::kPut,
                                 StoredItem{EncodeItem(new_item), static_cast<uint32_t>(size)},
                                 table.value().indexes->EntriesFor(new_item),
                                 table.value().index_generation};
      });
  if (!applied.ok()) return applied.error();
  return returned;
}

Status Engine::BatchWriteItem(const std::vector<WriteRequest>& requests) {
  struct Prepared {
    std::shared_ptr<TableItems> items;
    std::string key;
    std::optional<StoredItem> stored;  // set for puts
    IndexEntries entries;
    uint64_t index_generation = 0;
  };
  std::vector<Prepared> prepared;
  prepared.reserve(requests.size());
  std::set<std::pair<std::string, std::string>> seen;  // (table, key bytes)
  for (const WriteRequest& request : requests) {
    const bool put = request.kind == WriteRequest::Kind::kPut;
    const size_t size = put ? ItemSize(request.item) : 0;
    if (Status sized = CheckItemSize(size); !sized.ok()) return sized;
    auto table = FindItemTable(request.table_name);
    if (!table.ok()) return table.error();
    auto key =
        put ? ItemKeyBytes(table.value().key_shape, request.item, KeyMismatchStyle::kSchemaMismatch)
            : LookupKeyBytes(table.value().key_shape, request.item);
    if (!key.ok()) return key.error();
    if (!seen.emplace(request.table_name, key.value()).second) {
      return Error::Validation("Provided list of item keys contains duplicates");
    }
    Prepared entry{table.value().items,
                   std::move(key).value(),
                   std::nullopt,
                   {},
                   table.value().index_generation};
    if (put) {
      const TableIndexes& indexes = *table.value().indexes;
      if (Status index_keys = indexes.CheckItem(request.item); !index_keys.ok()) return index_keys;
      entry.stored = StoredItem{EncodeItem(request.item), static_cast<uint32_t>(size)};
      entry.entries = indexes.EntriesFor(request.item);
    }
    prepared.push_back(std::move(entry));
  }
  for (Prepared& entry : prepared) {
    if (entry.stored) {
      // Only an item collection over its limit fails here; writes before it stay, as each
      // write of a batch stands alone in DynamoDB.
      auto put = entry.items->Put(entry.key, *entry.stored, entry.entries, entry.index_generation);
      if (!put.ok()) return put.error();
    } else {
      entry.items->Erase(entry.key);
    }
  }
  return Ok{};
}

Result<std::vector<std::optional<StoredItem>>> Engine::BatchGetItem(
    const std::vector<GetRequest>& requests) const {
  std::vector<std::pair<std::shared_ptr<TableItems>, std::string>> lookups;
  lookups.reserve(requests.size());
  std::set<std::pair<std::string, std::string>> seen;
  for (const GetRequest& request : requests) {
    auto table = FindItemTable(request.table_name);
    if (!table.ok()) return table.error();
    auto key = LookupKeyBytes(table.value().key_shape, request.key);
    if (!key.ok()) return key.error();
    if (!seen.emplace(request.table_name, key.value()).second) {
      return Error::Validation("Provided list of item keys contains duplicates");
    }
    lookups.emplace_back(table.value().items, std::move(key).value());
  }
  std::vector<std::optional<StoredItem>> results;
  results.reserve(lookups.size());
  for (const auto& [items, key] : lookups) results.push_back(items->Get(key));
  return results;
}

}  // namespace ddbd
