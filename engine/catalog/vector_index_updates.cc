#include "engine/catalog/vector_index_updates.h"

#include <algorithm>

#include "engine/catalog/parameter_checks.h"
#include "engine/catalog/vector_index_validation.h"

namespace ddbd {
namespace {

constexpr const char* kStillInUse = "Attempt to change a resource which is still in use: ";

bool Changing(const VectorIndexDescription& index) {
  return index.index_status == TableStatus::kCreating ||
         index.index_status == TableStatus::kDeleting;
}

Error OneAtATime() {
  return Error::LimitExceeded(
      "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously "
      "per table");
}

VectorIndexDescription* FindVectorIndex(TableDescription& table, const std::string& name) {
  for (VectorIndexDescription& index : table.vector_indexes) {
    if (index.definition.index_name == name && index.index_status != TableStatus::kDeleting) {
      return &index;
    }
  }
  return nullptr;
}

}  // namespace

Status CheckVectorIndexUpdatesDuringChange(const UpdateTableArgs& args,
                                           const TableDescription& table) {
  const auto changing =
      std::find_if(table.vector_indexes.begin(), table.vector_indexes.end(), Changing);
  if (args.vector_index_updates.empty() || changing == table.vector_indexes.end()) return Ok{};
  for (const VectorIndexUpdate& update : args.vector_index_updates) {
    if (update.action != VectorIndexUpdate::Action::kDelete ||
        update.index.index_name != changing->definition.index_name ||
        changing->index_status != TableStatus::kCreating) {
      continue;
    }
    if (!changing->backfilling) {
      return Error::ResourceInUse(std::string(kStillInUse) +
                                  "Index creation is in resource allocation phase. Retry deletion "
                                  "during backfilling phase or when the index is active.");
    }
    return Ok{};  // a backfilling index may be deleted
  }
  return OneAtATime();
}

Status CheckDeleteDuringVectorIndexChange(const TableDescription& table) {
  if (std::any_of(table.vector_indexes.begin(), table.vector_indexes.end(), Changing)) {
    return Error::ResourceInUse(std::string(kStillInUse) +
                                "Cannot delete table while indexes are being created, updated, "
                                "or deleted.");
  }
  return Ok{};
}

Status ApplyVectorIndexUpdates(const UpdateTableArgs& args, const IndexUpdateContext& context,
                               TableDescription& table) {
  const auto& updates = args.vector_index_updates;
  if (updates.empty()) return Ok{};
  const auto index_changes = std::count_if(
      args.global_secondary_index_updates.begin(), args.global_secondary_index_updates.end(),
      [](const auto& u) { return u.action != GlobalSecondaryIndexUpdate::Action::kUpdate; });
  if (updates.size() + static_cast<size_t>(index_changes) > 1) return OneAtATime();
  TableDescription updated = table;
  const VectorIndexUpdate& update = updates.front();
  const std::string& name = update.index.index_name;
  if (update.action == VectorIndexUpdate::Action::kDelete) {
    VectorIndexDescription* index = FindVectorIndex(updated, name);
    if (index == nullptr) return Error::ResourceNotFound("Requested resource not found");
    if (context.delayed) {
      index->index_status = TableStatus::kDeleting;
      index->backfilling = false;
    } else {
      std::erase_if(updated.vector_indexes, [&](const VectorIndexDescription& other) {
        return other.definition.index_name == name;
      });
    }
  } else {
    auto merged = MergeDefinitions(updated, args, [&](const std::string& attribute) {
      return UsedBySearchSchema({update.index}, attribute);
    });
    if (!merged.ok()) return merged.error();
    std::vector<VectorIndexDefinition> all;
    for (const VectorIndexDescription& index : updated.vector_indexes) {
      if (index.index_status != TableStatus::kDeleting) all.push_back(index.definition);
    }
    all.push_back(update.index);
    std::vector<std::string> other_names;
    for (const IndexDescription& index : updated.indexes) {
      if (index.index_status != TableStatus::kDeleting) {
        other_names.push_back(index.definition.index_name);
      }
    }
    if (Status valid =
            ValidateVectorIndexes(all, updated.billing_mode, merged.value(), other_names);
        !valid.ok()) {
      return valid;
    }
    updated.attribute_definitions = std::move(merged).value();
    VectorIndexDescription index;
    index.definition = update.index;
    index.index_status = context.delayed ? TableStatus::kCreating : TableStatus::kActive;
    index.created_ms = context.delayed ? context.now_ms : 0;
    updated.vector_indexes.push_back(std::move(index));
  }
  DropUnusedDefinitions(updated);
  table = std::move(updated);
  return Ok{};
}

}  // namespace ddbd
