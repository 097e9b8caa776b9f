#include "engine/backups/restore.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "engine/catalog/vector_index_validation.h"
#include "engine/model/item_codec.h"
#include "engine/model/item_key.h"
#include "engine/storage/write_scope.h"

namespace ddbd {
namespace {

Error InvalidRequest(const std::string& detail) {
  return Error::Validation("Invalid Request: " + detail);
}

bool SameShape(const IndexDefinition& a, const IndexDefinition& b) {
  auto keys_equal = [](const KeySchemaElement& x, const KeySchemaElement& y) {
    return x.attribute_name == y.attribute_name && x.key_type == y.key_type;
  };
  return std::equal(a.key_schema.begin(), a.key_schema.end(), b.key_schema.begin(),
                    b.key_schema.end(), keys_equal) &&
         a.projection.projection_type == b.projection.projection_type &&
         a.projection.non_key_attributes == b.projection.non_key_attributes;
}

// The indexes of one kind the restored table gets: the source's, or those of `requested` (each
// matching a source index by key schema and projection; it may be renamed).
Result<std::vector<IndexDefinition>> RestoredIndexes(
    const TableDescription& source, bool global,
    const std::optional<std::vector<IndexDefinition>>& requested) {
  std::vector<IndexDefinition> existing;
  for (const IndexDescription& index : source.indexes) {
    if (index.is_global == global && index.index_status != TableStatus::kDeleting) {
      existing.push_back(index.definition);
    }
  }
  if (!requested) return existing;
  std::vector<IndexDefinition> restored;
  for (const IndexDefinition& wanted : *requested) {
    auto match = std::find_if(existing.begin(), existing.end(),
                              [&](const IndexDefinition& have) { return SameShape(have, wanted); });
    if (match == existing.end()) {
      return InvalidRequest("Index " + wanted.index_name +
                            " does not match a secondary index that existed in the source table "
                            "and cannot be created during the restore operation");
    }
    IndexDefinition index = *match;
    index.index_name = wanted.index_name;
    if (wanted.provisioned_throughput) index.provisioned_throughput = wanted.provisioned_throughput;
    if (wanted.on_demand_throughput) index.on_demand_throughput = wanted.on_demand_throughput;
    restored.push_back(std::move(index));
  }
  return restored;
}

// The vector indexes the restored table gets: the source's, or those of `requested`, each the
// same as a source index of its name (VectorIndexOverride may leave some or all out).
Result<std::vector<VectorIndexDefinition>> RestoredVectorIndexes(
    const TableDescription& source,
    const std::optional<std::vector<VectorIndexDefinition>>& requested) {
  std::vector<VectorIndexDefinition> existing;
  for (const VectorIndexDescription& index : source.vector_indexes) {
    if (index.index_status != TableStatus::kDeleting) existing.push_back(index.definition);
  }
  if (!requested) return existing;
  for (const VectorIndexDefinition& wanted : *requested) {
    if (std::find(existing.begin(), existing.end(), wanted) == existing.end()) {
      return InvalidRequest("Vector index " + wanted.index_name +
                            " does not match a vector index that existed in the source table "
                            "and cannot be created during the restore operation");
    }
  }
  return *requested;
}

}  // namespace

Result<CreateTableArgs> RestoredTableArgs(const TableDescription& source,
                                          const std::string& target_table_name,
                                          const RestoreOverrides& overrides) {
  const BillingMode billing = overrides.billing_mode.value_or(source.billing_mode);
  const bool on_demand = billing == BillingMode::kPayPerRequest;
  if (overrides.provisioned_throughput && on_demand) {
    return InvalidRequest(overrides.billing_mode
                              ? "Cannot override ProvisionedThroughput if BillingMode is "
                                "overridden to PAY_PER_REQUEST"
                              : "Cannot override ProvisionedThroughput unless BillingMode is "
                                "PROVISIONED");
  }
  if (overrides.billing_mode == BillingMode::kProvisioned &&
      source.billing_mode == BillingMode::kPayPerRequest && !overrides.provisioned_throughput) {
    return InvalidRequest(
        "Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED");
  }
  if (overrides.on_demand_throughput && !on_demand) {
    return InvalidRequest(
        "Cannot override MaxReadRequestUnits for OnDemandThroughput unless BillingModeOverride is "
        "PAY_PER_REQUEST");
  }
  CreateTableArgs args;
  args.table_name = target_table_name;
  args.key_schema = source.key_schema;
  if (overrides.billing_mode || source.billing_mode_described) args.billing_mode = billing;
  if (on_demand) {
    const OnDemandThroughput& maxima = overrides.on_demand_throughput
                                           ? *overrides.on_demand_throughput
                                           : source.on_demand_throughput;
    if (!maxima.empty()) args.on_demand_throughput = maxima;
  } else {
    args.provisioned_throughput =
        overrides.provisioned_throughput.value_or(source.provisioned_throughput);
  }
  if (overrides.sse_specification) {
    args.sse_specification = overrides.sse_specification;
  } else if (source.sse_description) {
    args.sse_specification = source.sse_description;
  }
  auto local = RestoredIndexes(source, false, overrides.local_secondary_indexes);
  if (!local.ok()) return local.error();
  auto global = RestoredIndexes(source, true, overrides.global_secondary_indexes);
  if (!global.ok()) return global.error();
  for (IndexDefinition& index : global.value()) {
    if (on_demand) {
      index.provisioned_throughput.reset();
      continue;
    }
    index.on_demand_throughput.reset();
    // An index of an on-demand source has no throughput to carry over.
    if (!index.provisioned_throughput || index.provisioned_throughput->read_capacity_units == 0) {
      return InvalidRequest("Must specify provisioned throughput for index " + index.index_name);
    }
  }
  args.local_secondary_indexes = std::move(local).value();
  args.global_secondary_indexes = std::move(global).value();
  auto vectors = RestoredVectorIndexes(source, overrides.vector_indexes);
  if (!vectors.ok()) return vectors.error();
  args.vector_indexes = std::move(vectors).value();
  // The definitions of the attributes the keys and search schemas use, no more (CreateTable
  // refuses unused ones).
  for (const AttributeDefinition& definition : source.attribute_definitions) {
    auto keyed = [&](const std::vector<KeySchemaElement>& keys) {
      return std::any_of(keys.begin(), keys.end(), [&](const KeySchemaElement& key) {
        return key.attribute_name == definition.attribute_name;
      });
    };
    bool used = keyed(args.key_schema);
    for (const auto* indexes : {&args.local_secondary_indexes, &args.global_secondary_indexes}) {
      for (const IndexDefinition& index : *indexes) used = used || keyed(index.key_schema);
    }
    used = used || UsedBySearchSchema(args.vector_indexes, definition.attribute_name);
    if (used) args.attribute_definitions.push_back(definition);
  }
  return args;
}

Result<TableOutcome> RestoreInto(Catalog& catalog, const CreateTableCall& create_table,
                                 const CreateTableArgs& args,
                                 const std::vector<StoredItem>& items) {
  auto created = create_table(args);
  if (!created.ok()) {  // a name in use, also by a table being deleted
    if (created.error().code() == ErrorCode::kResourceInUse) {
      return Error{ErrorCode::kTableAlreadyExists, "Table already exists: " + args.table_name};
    }
    return created.error();
  }
  std::shared_ptr<TableItems> table_items;
  std::shared_ptr<const TableIndexes> indexes;
  KeyShape key_shape;
  {
    std::shared_lock lock(catalog.mutex);
    const TableEntry& entry = *catalog.tables.find(args.table_name)->second;
    table_items = entry.items;
    indexes = entry.indexes;
    key_shape = entry.key_shape;
  }
  Status loaded = Ok{};
  {
    // One scope for the whole load: a write to the new table waits until it is full.
    WriteScope scope(*table_items);
    for (const StoredItem& item : items) {
      const Item decoded = DecodeItem(item.blob);
      // A backup holds only items its table accepted; a write can still fail (an item
      // collection over its limit, a log that cannot be written).
      auto key = ItemKeyBytes(key_shape, decoded, KeyMismatchStyle::kTypeMismatch);
      if (!key.ok()) {
        loaded = key.error();
        break;
      }
      IndexEntries entries;
      if (!indexes->list().empty()) entries = indexes->EntriesFor(key.value(), item);
      auto committed =
          table_items->Commit(scope, key.value(),
                              [&](const TableItems::Current*) -> Result<TableItems::Write> {
                                return TableItems::Write{TableItems::Write::Kind::kPut, &item,
                                                         &entries, table_items->index_generation()};
                              },
                              {ChangeOrigin::kLoad, 0});
      if (!committed.ok()) {
        loaded = committed.error();
        break;
      }
    }
  }
  const int64_t now_ms = catalog.clock.NowMs();
  std::unique_lock lock(catalog.mutex);
  auto it = catalog.tables.find(args.table_name);
  if (it == catalog.tables.end()) return Error::Internal("restored table vanished");
  if (!loaded.ok()) {  // a failed restore leaves no table, as a restart would make of it
    catalog.CommitLocked(
        {CatalogChange::Kind::kDeleteTable, args.table_name, nullptr, {}, 0, now_ms, {}});
    return loaded.error();
  }
  // Loaded: the table goes ACTIVE (after --table-delay-ms, like any new table).
  CatalogChange finished;
  finished.kind = CatalogChange::Kind::kUpdateTable;
  finished.table_name = args.table_name;
  finished.description = it->second->description;
  finished.description.restore_summary->restore_in_progress = false;
  finished.transition_done_ms = now_ms + catalog.options.table_delay_ms;
  finished.now_ms = now_ms;
  // Its log record comes after every item's: the answer waits for it, and so for them all.
  const Ticket ticket{catalog.CommitLocked(std::move(finished))};
  TableDescription answer = Catalog::Snapshot(*it->second, now_ms);
  answer.restore_summary = it->second->description.restore_summary;  // the answer tells it always
  lock.unlock();
  Catalog::FillCounts(*table_items, answer);
  return TableOutcome(std::move(answer), ticket);
}

}  // namespace ddbd
