#include "protocol/operations/operations.h"

namespace ddbd::operations {

// DescribeLimits takes no members and reports the provisioned-capacity quotas: DynamoDB's
// defaults unless the engine was given others.
Status DescribeLimits(Engine& engine, const json::Value&, json::Writer& response) {
  const ThroughputLimits& limits = engine.options().limits;
  response.StartObject();
  response.Key("AccountMaxReadCapacityUnits");
  response.Int64(limits.account_max_read_capacity_units);
  response.Key("AccountMaxWriteCapacityUnits");
  response.Int64(limits.account_max_write_capacity_units);
  response.Key("TableMaxReadCapacityUnits");
  response.Int64(limits.table_max_read_capacity_units);
  response.Key("TableMaxWriteCapacityUnits");
  response.Int64(limits.table_max_write_capacity_units);
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
