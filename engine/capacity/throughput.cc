#include "engine/capacity/throughput.h"

#include <algorithm>

namespace ddbd {

void TokenBucket::Configure(double units_per_second, double burst_seconds, int64_t now_ms) {
  Refill(now_ms);
  const bool was_limited = limited();
  rate_ = units_per_second;
  capacity_ = units_per_second * std::max(1.0, burst_seconds);
  last_ms_ = now_ms;
  tokens_ = was_limited ? std::min(tokens_, capacity_) : units_per_second;
}

void TokenBucket::Refill(int64_t now_ms) {
  if (!limited() || now_ms <= last_ms_) return;
  tokens_ = std::min(capacity_, tokens_ + rate_ * static_cast<double>(now_ms - last_ms_) / 1000.0);
  last_ms_ = now_ms;
}

bool TokenBucket::Admits(int64_t now_ms) {
  if (!limited()) return true;
  Refill(now_ms);
  return tokens_ > 0;
}

void TokenBucket::Charge(double units, int64_t now_ms) {
  if (!limited()) return;
  Refill(now_ms);
  tokens_ -= units;
}

void TableThroughput::Configure(const TableDescription& table, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::vector<Buckets> configured;
  auto configure = [&](const std::string& name, const std::string& arn,
                       const std::optional<ProvisionedThroughput>& provisioned,
                       const std::optional<OnDemandThroughput>& on_demand) {
    Buckets* existing = Find(name);
    Buckets buckets = existing != nullptr ? *existing : Buckets{name, arn, false, {}, {}};
    buckets.on_demand = table.billing_mode == BillingMode::kPayPerRequest;
    double read = 0;
    double write = 0;
    double burst = kBurstSeconds;
    if (!buckets.on_demand && provisioned) {
      read = static_cast<double>(provisioned->read_capacity_units);
      write = static_cast<double>(provisioned->write_capacity_units);
    } else if (buckets.on_demand && on_demand) {
      read = static_cast<double>(on_demand->max_read_request_units.value_or(0));
      write = static_cast<double>(on_demand->max_write_request_units.value_or(0));
      burst = 1;  // a ceiling, not a budget
    }
    buckets.read.Configure(read, burst, now_ms);
    buckets.write.Configure(write, burst, now_ms);
    configured.push_back(std::move(buckets));
  };
  configure("", table.table_arn, table.provisioned_throughput,
            table.on_demand_throughput.empty() ? std::nullopt
                                               : std::optional(table.on_demand_throughput));
  for (const IndexDescription& index : table.indexes) {
    if (!index.is_global || index.index_status == TableStatus::kDeleting) continue;
    const IndexDefinition& definition = index.definition;
    configure(definition.index_name, table.table_arn + "/index/" + definition.index_name,
              definition.provisioned_throughput, definition.on_demand_throughput);
  }
  buckets_ = std::move(configured);
}

TableThroughput::Buckets* TableThroughput::Find(std::string_view index) {
  for (Buckets& buckets : buckets_) {
    if (buckets.name == index) return &buckets;
  }
  return nullptr;
}

Error TableThroughput::Throttled(const Buckets& buckets, bool write) {
  const bool table = buckets.name.empty();
  std::string reason =
      std::string(table ? "Table" : "Index") + (write ? "Write" : "Read") +
      (buckets.on_demand ? "MaxOnDemandThroughputExceeded" : "ProvisionedThroughputExceeded");
  if (buckets.on_demand) {
    return Error::Throttled(
        ErrorCode::kThrottling,
        "Throughput exceeds the current capacity of your table or index. DynamoDB is "
        "automatically scaling your table or index so please try again shortly. If exceptions "
        "persist, check if you have a hot key: "
        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
        "bp-partition-key-design.html",
        {std::move(reason), buckets.arn});
  }
  return Error::Throttled(
      ErrorCode::kProvisionedThroughputExceeded,
      table ? "The level of configured provisioned throughput for the table was exceeded. "
              "Consider increasing your provisioning level with the UpdateTable API."
            : "The level of configured provisioned throughput for one or more global secondary "
              "indexes of the table was exceeded. Consider increasing your provisioning level for "
              "the under-provisioned global secondary indexes with the UpdateTable API",
      {std::move(reason), buckets.arn});
}

Status TableThroughput::AdmitRead(std::string_view index, int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Buckets* buckets = Find(index);
  if (buckets == nullptr || buckets->read.Admits(now_ms)) return Ok{};
  return Throttled(*buckets, false);
}

Status TableThroughput::AdmitWrite(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  for (Buckets& buckets : buckets_) {
    if (!buckets.write.Admits(now_ms)) return Throttled(buckets, true);
  }
  return Ok{};
}

void TableThroughput::ChargeRead(const ConsumedCapacity& consumed, int64_t now_ms) {
  Charge(consumed, &Buckets::read, now_ms);
}

void TableThroughput::ChargeWrite(const ConsumedCapacity& consumed, int64_t now_ms) {
  Charge(consumed, &Buckets::write, now_ms);
}

void TableThroughput::Charge(const ConsumedCapacity& consumed, TokenBucket Buckets::*bucket,
                             int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (!buckets_.empty()) {
    double local = 0;
    for (const auto& [name, units] : consumed.local_indexes) local += units;
    (buckets_[0].*bucket).Charge(consumed.table_units + local, now_ms);
  }
  for (const auto& [name, units] : consumed.global_indexes) {
    if (Buckets* buckets = Find(name)) (buckets->*bucket).Charge(units, now_ms);
  }
}

}  // namespace ddbd
