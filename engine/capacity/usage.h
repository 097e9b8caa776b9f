// What a table has consumed since the server started, in capacity units, for the table and for
// each of its indexes: the figures /metrics reports. Every operation's consumption is charged
// here, whether or not the request asked for ConsumedCapacity and whether or not throughput is
// enforced (engine/capacity/throughput.h limits; this only counts).
//
// Thread safety: Charge and Read may be called from any thread. The table's own units are
// lock-free; index parts take a mutex, only when an operation touched an index.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "engine/capacity/capacity.h"

namespace ddbd {

class CapacityUsage {
 public:
  void ChargeRead(const ConsumedCapacity& consumed) { Charge(consumed, false); }
  void ChargeWrite(const ConsumedCapacity& consumed) { Charge(consumed, true); }

  struct Part {
    std::string index;  // empty: the table itself
    bool global = false;
    double read_units = 0;
    double write_units = 0;
  };
  // The table first, then each index that consumed anything, by name.
  std::vector<Part> Read() const;

 private:
  struct Halves {
    uint64_t read = 0;
    uint64_t write = 0;
    bool global = false;
  };
  void Charge(const ConsumedCapacity& consumed, bool write);

  // Units are multiples of 0.5: counted in halves, so integers add exactly.
  std::atomic<uint64_t> read_halves_ = 0;
  std::atomic<uint64_t> write_halves_ = 0;
  mutable std::mutex mutex_;
  std::map<std::string, Halves> indexes_;
};

}  // namespace ddbd
