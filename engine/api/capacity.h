// What an operation consumed, as ReturnConsumedCapacity asks for it: the units one operation
// consumed on one table, by part (engine/capacity/capacity.h counts them).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ddbd {

// ReturnConsumedCapacity: nothing, the total per table, or the total with its table and index
// parts.
enum class ReturnConsumedCapacity { kNone, kTotal, kIndexes };

// The units one operation consumed on one table, by part. Units are multiples of 0.5.
struct ConsumedCapacity {
  // Transactions also report the units as read or write units (every part the same figure);
  // other operations do not.
  enum class Kind { kUnsplit, kRead, kWrite };
  Kind kind = Kind::kUnsplit;
  std::string table_name;
  double table_units = 0;
  std::vector<std::pair<std::string, double>> global_indexes;  // only indexes that cost something
  std::vector<std::pair<std::string, double>> local_indexes;
  double total() const;
  // Adds `units` to the named index (a no-op for 0: untouched indexes are not reported).
  void AddIndex(const std::string& name, bool global, double units);
  // Adds another operation's consumption on the same table (batches report one entry per table).
  void Add(const ConsumedCapacity& other);
};

}  // namespace ddbd
