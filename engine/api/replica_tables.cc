// What a global table's description implies: a new replica's CreateTable arguments (the server's
// link makes a replica created by UpdateTable's ReplicaUpdates, and a multi-account replica
// joining its source makes itself, the same table), and its settings replication mode.
#include <utility>

#include "engine/api/tables.h"

namespace ddbd {

CreateTableArgs ReplicaTableArgs(const TableDescription& table,
                                 const std::vector<ReplicaDescription>& replicas) {
  CreateTableArgs args;
  args.table_name = table.table_name;
  args.attribute_definitions = table.attribute_definitions;
  args.key_schema = table.key_schema;
  if (table.billing_mode_described) args.billing_mode = table.billing_mode;
  if (table.billing_mode == BillingMode::kProvisioned) {
    args.provisioned_throughput = table.provisioned_throughput;
  } else if (!table.on_demand_throughput.empty()) {
    args.on_demand_throughput = table.on_demand_throughput;
  }
  args.stream_specification = table.stream_specification;
  args.table_class = table.table_class;
  for (const IndexDescription& index : table.indexes) {
    IndexDefinition definition = index.definition;
    // Described as zeros on an on-demand table; CreateTable takes none there.
    if (table.billing_mode == BillingMode::kPayPerRequest) {
      definition.provisioned_throughput.reset();
    }
    (index.is_global ? args.global_secondary_indexes : args.local_secondary_indexes)
        .push_back(std::move(definition));
  }
  for (const VectorIndexDescription& index : table.vector_indexes) {
    args.vector_indexes.push_back(index.definition);
  }
  args.replicas = replicas;
  return args;
}

std::optional<SettingsReplicationMode> SettingsReplicationModeOf(const TableDescription& table) {
  if (MultiAccount(table.replicas)) return SettingsReplicationMode::kEnabled;
  if (!table.replicas.empty() && table.legacy_global_table_created_ms == 0) {
    return SettingsReplicationMode::kEnabledWithOverrides;
  }
  return table.settings_replication_mode;
}

}  // namespace ddbd
