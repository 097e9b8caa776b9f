// UpdateTableReplicaAutoScaling and DescribeTableReplicaAutoScaling over the catalog: a table's
// auto scaling settings kept, validated and described (nothing scales), the same in every member
// of a global table (made in the others through the catalog's options' ReplicationLink).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/auto_scaling.h"
#include "engine/api/tables.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

Result<TableAutoScalingDescription> UpdateReplicaAutoScaling(
    Catalog& catalog, const UpdateTableReplicaAutoScalingArgs& args);
Result<TableAutoScalingDescription> DescribeReplicaAutoScaling(const Catalog& catalog,
                                                               const std::string& table_name);

// UpdateReplicaAutoScaling's refusal of `args` for `table` as described (nothing changed), or Ok:
// for a caller that must check before it changes anything else.
Status CheckReplicaAutoScaling(const TableDescription& table, const std::string& region,
                               const UpdateTableReplicaAutoScalingArgs& args);

// One global index's settings in `list` (an index's writes, or a region's index reads).
std::optional<AutoScalingSettings> IndexSettings(const std::vector<IndexAutoScaling>& list,
                                                 const std::string& index_name);

// The settings as another member sets them (no checks, not passed on).
Status SetReplicaAutoScaling(Catalog& catalog, const std::string& table_name,
                             TableAutoScaling settings);

// Whether the table may take replicas as far as its write capacity goes: on-demand, or
// provisioned with write auto scaling enabled (DynamoDB's condition for a global table).
bool WriteCapacityScales(const TableDescription& table);

}  // namespace ddbd
