// Throughput limits, when the engine enforces them (--enforce-throughput): token buckets per table
// and per global secondary index, filled at the provisioned capacity with up to 300 seconds of
// unused capacity kept as burst, or for on-demand tables at their OnDemandThroughput ceilings
// (no burst; none without a ceiling). ../shared/aws-semantics.md section 2.
//
// A request is admitted while its buckets are not in debt, and charged what it consumed once it
// is done (a read's cost is known only then), so one large request may take a bucket below zero
// and the next ones wait until it refills.
//
// Thread safety: TableThroughput may be used from any thread.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/tables.h"
#include "engine/capacity/capacity.h"
#include "engine/error.h"

namespace ddbd {

// Seconds of unused provisioned capacity a bucket keeps.
inline constexpr double kBurstSeconds = 300;

class TokenBucket {
 public:
  // `units_per_second` 0: no limit. A new limit starts with one second of capacity; a changed one
  // keeps what the bucket holds, up to the new capacity.
  void Configure(double units_per_second, double burst_seconds, int64_t now_ms);
  bool limited() const { return rate_ > 0; }
  // Refills for the time passed; true unless the bucket is limited and in debt (empty).
  bool Admits(int64_t now_ms);
  void Charge(double units, int64_t now_ms);

 private:
  void Refill(int64_t now_ms);
  double rate_ = 0;
  double capacity_ = 0;
  double tokens_ = 0;
  int64_t last_ms_ = 0;
};

class TableThroughput {
 public:
  // Rates from `table`: its billing mode, provisioned capacity or on-demand ceilings, and those of
  // its global indexes. Call again when UpdateTable changes them: the new rates apply at once.
  void Configure(const TableDescription& table, int64_t now_ms);

  // Whether a read of the table (`index` empty) or of a global index may start:
  // ProvisionedThroughputExceededException (provisioned) or ThrottlingException (on-demand
  // ceiling) otherwise.
  Status AdmitRead(std::string_view index, int64_t now_ms);
  // A write needs capacity on the table and on every global index.
  Status AdmitWrite(int64_t now_ms);
  // Charges what an operation consumed: the table part to the table, each global index's part to
  // that index (local index units to the table, whose capacity they share).
  void ChargeRead(const ConsumedCapacity& consumed, int64_t now_ms);
  void ChargeWrite(const ConsumedCapacity& consumed, int64_t now_ms);

 private:
  struct Buckets {
    std::string name;  // empty: the table
    std::string arn;
    bool on_demand = false;
    TokenBucket read;
    TokenBucket write;
  };
  Buckets* Find(std::string_view index);
  void Charge(const ConsumedCapacity& consumed, TokenBucket Buckets::*bucket, int64_t now_ms);
  static Error Throttled(const Buckets& buckets, bool write);

  std::mutex mutex_;
  std::vector<Buckets> buckets_;  // the table first, then its global indexes
};

}  // namespace ddbd
