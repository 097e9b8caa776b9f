#include "engine/capacity/throughput.h"

#include <catch2/catch.hpp>

namespace ddbd {
namespace {

TEST_CASE("A bucket starts with one second of capacity and keeps up to 300 s of unused") {
  TokenBucket bucket;
  bucket.Configure(10, kBurstSeconds, 0);
  CHECK(bucket.Admits(0));
  bucket.Charge(10, 0);  // one second's worth, all at once
  CHECK_FALSE(bucket.Admits(0));
  CHECK(bucket.Admits(1));  // 1 ms refills 0.01 units
  bucket.Charge(0.01, 1);
  // Idle for an hour: only 300 s (3,000 units) are kept.
  const int64_t later = 3'600'000;
  bucket.Charge(2999, later);
  CHECK(bucket.Admits(later));
  bucket.Charge(1.5, later);
  CHECK_FALSE(bucket.Admits(later));
}

TEST_CASE("A large request may overdraw, the next ones wait for the debt to refill") {
  TokenBucket bucket;
  bucket.Configure(1, kBurstSeconds, 0);
  CHECK(bucket.Admits(0));
  bucket.Charge(5, 0);  // a 5 KB write with one unit left: admitted, 4 units in debt
  CHECK_FALSE(bucket.Admits(2000));
  CHECK_FALSE(bucket.Admits(3990));
  CHECK(bucket.Admits(4010));
}

TEST_CASE("An unlimited bucket admits everything") {
  TokenBucket bucket;
  bucket.Configure(0, kBurstSeconds, 0);
  bucket.Charge(1e9, 0);
  CHECK(bucket.Admits(0));
}

TableDescription Provisioned(int64_t read, int64_t write) {
  TableDescription table;
  table.table_name = "Orders";
  table.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders";
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = {read, write};
  IndexDescription index;
  index.is_global = true;
  index.definition.index_name = "by-status";
  index.definition.provisioned_throughput = ProvisionedThroughput{100, 1};
  table.indexes.push_back(index);
  return table;
}

TEST_CASE("Writes need capacity on the table and every global index") {
  TableThroughput throughput;
  throughput.Configure(Provisioned(100, 100), 0);
  REQUIRE(throughput.AdmitWrite(0).ok());
  ConsumedCapacity consumed;
  consumed.table_units = 1;
  consumed.AddIndex("by-status", true, 1);
  throughput.ChargeWrite(consumed, 0);
  const Status refused = throughput.AdmitWrite(0);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kProvisionedThroughputExceeded);
  CHECK(refused.error().message() ==
        "The level of configured provisioned throughput for one or more global secondary indexes "
        "of the table was exceeded. Consider increasing your provisioning level for the "
        "under-provisioned global secondary indexes with the UpdateTable API");
  REQUIRE(refused.error().throttling_reason() != nullptr);
  CHECK(refused.error().throttling_reason()->reason == "IndexWriteProvisionedThroughputExceeded");
  CHECK(refused.error().throttling_reason()->resource ==
        "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/index/by-status");
  // Reads of the table are unaffected.
  CHECK(throughput.AdmitRead("", 0).ok());
}

TEST_CASE("UpdateTable's new capacity applies at once") {
  TableThroughput throughput;
  throughput.Configure(Provisioned(1, 1), 0);
  ConsumedCapacity consumed;
  consumed.table_units = 2;
  throughput.ChargeRead(consumed, 0);
  const Status refused = throughput.AdmitRead("", 0);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message() ==
        "The level of configured provisioned throughput for the table was exceeded. Consider "
        "increasing your provisioning level with the UpdateTable API.");
  CHECK(refused.error().throttling_reason()->reason == "TableReadProvisionedThroughputExceeded");
  CHECK_FALSE(throughput.AdmitRead("", 500).ok());  // 1 unit/s: still in debt after 0.5 s
  throughput.Configure(Provisioned(1000, 1), 500);
  CHECK(throughput.AdmitRead("", 502).ok());  // 1,000 units/s: out of debt in 2 ms
}

TEST_CASE("On-demand ceilings throttle with ThrottlingException, no ceiling, no limit") {
  TableDescription table;
  table.table_arn = "arn:t";
  table.billing_mode = BillingMode::kPayPerRequest;
  TableThroughput unlimited;
  unlimited.Configure(table, 0);
  ConsumedCapacity consumed;
  consumed.table_units = 1e6;
  unlimited.ChargeWrite(consumed, 0);
  CHECK(unlimited.AdmitWrite(0).ok());

  table.on_demand_throughput.max_write_request_units = 5;
  TableThroughput capped;
  capped.Configure(table, 0);
  consumed.table_units = 5;
  capped.ChargeWrite(consumed, 0);
  const Status refused = capped.AdmitWrite(0);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kThrottling);
  CHECK(refused.error().throttling_reason()->reason == "TableWriteMaxOnDemandThroughputExceeded");
  CHECK(capped.AdmitRead("", 0).ok());  // no read ceiling
}

}  // namespace
}  // namespace ddbd
