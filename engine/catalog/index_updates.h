// UpdateTable's GlobalSecondaryIndexUpdates: DynamoDB's checks, and the table description they
// lead to. Moving the index trees themselves (backfill, drop) is the engine's part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

struct IndexUpdateContext {
  int64_t now_ms = 0;
  bool delayed = false;  // true when status changes take --table-delay-ms
  size_t next_slot = 0;  // the slot a created index gets
  BillingMode billing_mode_before = BillingMode::kProvisioned;  // before this UpdateTable
};

// Checks every update in `args` against `table`, then applies them to `table`: a created index
// is CREATING and backfilling when delayed, else ACTIVE; a deleted one is DELETING when delayed,
// else gone; an updated one takes its new throughput. A switch of the table's billing mode
// (already applied to `table`) carries over to its global indexes: to PAY_PER_REQUEST they lose
// their throughput; to PROVISIONED each must be given throughput by an Update. AttributeDefinitions
// end up as exactly the attributes the table's and its indexes' keys use. Nothing changes on error.
Status ApplyIndexUpdates(const UpdateTableArgs& args, const IndexUpdateContext& context,
                         TableDescription& table);

// The table's definitions with those of the call's AttributeDefinitions that the index being
// created uses (`used_by_index`) added: "Attribute Name is duplicated" for a name given twice,
// "Attributes cannot be redefined" for one of another type than the table's.
Result<std::vector<AttributeDefinition>> MergeDefinitions(
    const TableDescription& table, const UpdateTableArgs& args,
    const std::function<bool(const std::string&)>& used_by_index);

// Keeps exactly the definitions some key (table or remaining index) or vector index search
// schema uses, in their order.
void DropUnusedDefinitions(TableDescription& table);

}  // namespace ddbd
