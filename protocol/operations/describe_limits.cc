#include "protocol/operations/operations.h"

namespace ddbd::operations {

// DescribeLimits takes no members and reports the provisioned-capacity quotas: DynamoDB's
// defaults unless the engine was given others.
Status DescribeLimits(Engine& engine, const wire::DescribeLimitsInput&, json::Writer& response) {
  const ThroughputLimits& limits = engine.options().limits;
  wire::Write<wire::out::DescribeLimitsOutput>(response, [&](auto& out) {
    out.AccountMaxReadCapacityUnits(limits.account_max_read_capacity_units);
    out.AccountMaxWriteCapacityUnits(limits.account_max_write_capacity_units);
    out.TableMaxReadCapacityUnits(limits.table_max_read_capacity_units);
    out.TableMaxWriteCapacityUnits(limits.table_max_write_capacity_units);
  });
  return Ok{};
}

}  // namespace ddbd::operations
