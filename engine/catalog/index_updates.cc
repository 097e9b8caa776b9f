#include "engine/catalog/index_updates.h"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/catalog/index_validation.h"
#include "engine/catalog/parameter_checks.h"
#include "engine/catalog/table_validation.h"

namespace ddbd {
namespace {

IndexDescription* FindIndex(TableDescription& table, const std::string& name) {
  for (IndexDescription& index : table.indexes) {
    if (index.definition.index_name == name) return &index;
  }
  return nullptr;
}

IndexDescription* FindGlobalIndex(TableDescription& table, const std::string& name) {
  IndexDescription* index = FindIndex(table, name);
  return index != nullptr && index->is_global && index->index_status != TableStatus::kDeleting
             ? index
             : nullptr;
}

// The attribute definitions after adding those the new index's keys use. A definition the new
// index does not use is ignored, whatever its type (measured: stale or conflicting extra
// definitions are accepted); one it uses must agree with the table's.
Result<std::vector<AttributeDefinition>> MergeKeyDefinitions(const TableDescription& table,
                                                             const UpdateTableArgs& args,
                                                             const IndexDefinition& index) {
  return MergeDefinitions(table, args, [&](const std::string& name) {
    return std::any_of(index.key_schema.begin(), index.key_schema.end(),
                       [&](const KeySchemaElement& key) { return key.attribute_name == name; });
  });
}

Status CheckCreate(const UpdateTableArgs& args, const IndexDefinition& index,
                   const TableDescription& table) {
  if (args.attribute_definitions.empty()) {
    return InvalidParameter("AttributeDefinitions is not specified for index: " + index.index_name);
  }
  if (Status keys = CheckIndexKeySchema(index, true); !keys.ok()) return keys;
  std::vector<std::string> missing;
  for (const KeySchemaElement& element : index.key_schema) {
    const bool defined = std::any_of(args.attribute_definitions.begin(),
                                     args.attribute_definitions.end(), [&](const auto& definition) {
                                       return definition.attribute_name == element.attribute_name;
                                     });
    if (!defined) missing.push_back(element.attribute_name);
  }
  if (!missing.empty()) {
    std::vector<std::string> given;
    for (const auto& definition : args.attribute_definitions) {
      given.push_back(definition.attribute_name);
    }
    return InvalidParameter(
        "Some index key attributes are not defined in AttributeDefinitions. Keys: " +
        ListedNames(missing) + ", AttributeDefinitions: " + ListedNames(given));
  }
  if (Status projection = CheckProjection(index); !projection.ok()) return projection;
  if (index.on_demand_throughput) {
    if (Status checked = CheckOnDemandThroughput(*index.on_demand_throughput, table.billing_mode,
                                                 false, "index");
        !checked.ok()) {
      return checked;
    }
  }
  if (table.billing_mode == BillingMode::kPayPerRequest) {
    if (index.provisioned_throughput) {
      return InvalidParameter(
          "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: " +
          index.index_name + " when BillingMode is PAY_PER_REQUEST");
    }
    return Ok{};
  }
  if (!index.provisioned_throughput) {
    return InvalidParameter("ProvisionedThroughput must be specified for index: " +
                            index.index_name);
  }
  return CheckCapacityBounds(*index.provisioned_throughput);
}

std::string UnchangedIndexThroughputMessage(const std::string& name,
                                            const ProvisionedThroughput& current,
                                            const ProvisionedThroughput& requested) {
  return "The provisioned throughput for the index " + name +
         " will not change. The requested value equals the current value. Current "
         "ReadCapacityUnits provisioned for the index " +
         name + ": " + std::to_string(current.read_capacity_units) +
         ". Requested ReadCapacityUnits: " + std::to_string(requested.read_capacity_units) +
         ". Current WriteCapacityUnits provisioned for the index " + name + ": " +
         std::to_string(current.write_capacity_units) +
         ". Requested WriteCapacityUnits: " + std::to_string(requested.write_capacity_units) +
         ". Refer to the Amazon DynamoDB Developer Guide for current limits and how to request "
         "higher limits.";
}

Status ApplyUpdate(const IndexDefinition& update, const IndexUpdateContext& context,
                   TableDescription& table) {
  IndexDescription* index = FindGlobalIndex(table, update.index_name);
  if (index == nullptr) {
    return Error::Validation("The table does not have the specified index: " + update.index_name);
  }
  if (update.warm_throughput) {
    auto warm = ApplyWarmThroughput(*update.warm_throughput,
                                    IndexWarmThroughput(table.billing_mode, *index), false,
                                    table.billing_mode, "index " + update.index_name);
    if (!warm.ok()) return warm.error();
    index->warm_throughput = warm.value();
    // WarmThroughput alone is a whole update.
    if (!update.provisioned_throughput && !update.on_demand_throughput) return Ok{};
  }
  if (table.billing_mode == BillingMode::kPayPerRequest) {
    if (update.provisioned_throughput) {
      return InvalidParameter(
          "The only Updates for index: " + update.index_name +
          " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, "
          "WarmThroughput");
    }
    if (update.on_demand_throughput) {
      if (Status checked = CheckOnDemandThroughput(*update.on_demand_throughput, table.billing_mode,
                                                   true, "index");
          !checked.ok()) {
        return checked;
      }
      OnDemandThroughput merged =
          index->definition.on_demand_throughput.value_or(OnDemandThroughput{});
      MergeOnDemandThroughput(*update.on_demand_throughput, merged);
      index->definition.on_demand_throughput = merged;
      if (merged.empty()) index->definition.on_demand_throughput.reset();
    }
  } else {
    if (update.on_demand_throughput) {
      return CheckOnDemandThroughput(*update.on_demand_throughput, table.billing_mode, true,
                                     "index");
    }
    if (!update.provisioned_throughput) {
      return InvalidParameter("ProvisionedThroughput must be specified for index: " +
                              update.index_name);
    }
    const ProvisionedThroughput& requested = *update.provisioned_throughput;
    if (Status bounds = CheckCapacityBounds(requested); !bounds.ok()) return bounds;
    const ProvisionedThroughput current =
        index->definition.provisioned_throughput.value_or(ProvisionedThroughput{});
    if (current.read_capacity_units == requested.read_capacity_units &&
        current.write_capacity_units == requested.write_capacity_units) {
      return Error::Validation(
          UnchangedIndexThroughputMessage(update.index_name, current, requested));
    }
    index->definition.provisioned_throughput = requested;
  }
  if (context.delayed) index->index_status = TableStatus::kUpdating;
  return Ok{};
}

Status CarryBillingMode(const UpdateTableArgs& args, const IndexUpdateContext& context,
                        TableDescription& table) {
  if (table.billing_mode == context.billing_mode_before) return Ok{};
  for (IndexDescription& index : table.indexes) {
    if (!index.is_global || index.index_status == TableStatus::kDeleting) continue;
    if (table.billing_mode == BillingMode::kPayPerRequest) {
      index.definition.provisioned_throughput = ProvisionedThroughput{0, 0};
      continue;
    }
    index.definition.on_demand_throughput.reset();
    const bool given = std::any_of(
        args.global_secondary_index_updates.begin(), args.global_secondary_index_updates.end(),
        [&](const GlobalSecondaryIndexUpdate& update) {
          return update.index.index_name == index.definition.index_name &&
                 update.index.provisioned_throughput.has_value();
        });
    if (!given) {
      return InvalidParameter("ProvisionedThroughput must be specified for index: " +
                              index.definition.index_name);
    }
  }
  return Ok{};
}

}  // namespace

Result<std::vector<AttributeDefinition>> MergeDefinitions(
    const TableDescription& table, const UpdateTableArgs& args,
    const std::function<bool(const std::string&)>& used_by_index) {
  std::vector<AttributeDefinition> merged = table.attribute_definitions;
  std::vector<std::string> seen;
  for (const AttributeDefinition& definition : args.attribute_definitions) {
    if (std::find(seen.begin(), seen.end(), definition.attribute_name) != seen.end()) {
      return Error::Validation("Attribute Name is duplicated: " + definition.attribute_name);
    }
    seen.push_back(definition.attribute_name);
    if (!used_by_index(definition.attribute_name)) continue;
    auto existing = std::find_if(merged.begin(), merged.end(), [&](const auto& known) {
      return known.attribute_name == definition.attribute_name;
    });
    if (existing == merged.end()) {
      merged.push_back(definition);
    } else if (existing->attribute_type != definition.attribute_type) {
      return InvalidParameter("Attributes cannot be redefined");
    }
  }
  return merged;
}

void DropUnusedDefinitions(TableDescription& table) {
  std::vector<std::string> used;
  for (const KeySchemaElement& element : table.key_schema) used.push_back(element.attribute_name);
  for (const IndexDescription& index : table.indexes) {
    if (index.index_status == TableStatus::kDeleting) continue;
    for (const KeySchemaElement& element : index.definition.key_schema) {
      used.push_back(element.attribute_name);
    }
  }
  for (const VectorIndexDescription& index : table.vector_indexes) {
    if (index.index_status == TableStatus::kDeleting) continue;
    for (const SearchSchemaElement& element : index.definition.search_schema) {
      used.push_back(element.attribute_name);
    }
  }
  std::erase_if(table.attribute_definitions, [&](const AttributeDefinition& definition) {
    return std::find(used.begin(), used.end(), definition.attribute_name) == used.end();
  });
}

Status ApplyIndexUpdates(const UpdateTableArgs& args, const IndexUpdateContext& context,
                         TableDescription& table) {
  using Action = GlobalSecondaryIndexUpdate::Action;
  const auto& updates = args.global_secondary_index_updates;
  const auto creates_or_deletes = std::count_if(
      updates.begin(), updates.end(), [](const auto& u) { return u.action != Action::kUpdate; });
  if (creates_or_deletes > 1) {
    return Error::LimitExceeded(
        "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously "
        "per table");
  }
  if (creates_or_deletes == 1 && args.provisioned_throughput) {
    return InvalidParameter("You cannot create or delete index while updating table IOPS");
  }
  if (creates_or_deletes == 1 && args.stream_specification) {
    return InvalidParameter("You cannot create or delete index while changing stream status");
  }
  TableDescription updated = table;
  for (const GlobalSecondaryIndexUpdate& update : updates) {
    const std::string& name = update.index.index_name;
    if (update.action == Action::kUpdate) {
      if (Status applied = ApplyUpdate(update.index, context, updated); !applied.ok()) {
        return applied;
      }
    } else if (update.action == Action::kDelete) {
      IndexDescription* index = FindGlobalIndex(updated, name);
      if (index == nullptr) {  // measured: not a ValidationException
        return Error::ResourceNotFound("Requested resource not found");
      }
      if (context.delayed) {
        index->index_status = TableStatus::kDeleting;
      } else {
        std::erase_if(updated.indexes,
                      [&](const auto& other) { return other.definition.index_name == name; });
      }
    } else {
      if (FindIndex(updated, name) != nullptr) {
        return Error::Validation("Attempting to create an index which already exists");
      }
      const auto globals =
          std::count_if(updated.indexes.begin(), updated.indexes.end(),
                        [](const IndexDescription& index) { return index.is_global; });
      if (static_cast<size_t>(globals) >= kMaxGlobalIndexes) return GlobalIndexLimitExceeded();
      if (Status valid = CheckCreate(args, update.index, updated); !valid.ok()) return valid;
      auto merged = MergeKeyDefinitions(updated, args, update.index);
      if (!merged.ok()) return merged.error();
      updated.attribute_definitions = std::move(merged).value();
      IndexDescription index;
      index.definition = update.index;
      auto warm = CreatedIndexWarmThroughput(updated.billing_mode, update.index);
      if (!warm.ok()) return warm.error();
      index.warm_throughput = warm.value();
      if (!index.definition.provisioned_throughput) {
        index.definition.provisioned_throughput = ProvisionedThroughput{0, 0};
      }
      index.is_global = true;
      index.slot = context.next_slot;
      index.index_status = context.delayed ? TableStatus::kCreating : TableStatus::kActive;
      index.backfilling = context.delayed;
      updated.indexes.push_back(std::move(index));
    }
  }
  if (Status billing = CarryBillingMode(args, context, updated); !billing.ok()) return billing;
  DropUnusedDefinitions(updated);
  table = std::move(updated);
  return Ok{};
}

}  // namespace ddbd
