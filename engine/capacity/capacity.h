// Capacity units as DynamoDB counts them (../shared/aws-semantics.md section 1): reads per 4 KB,
// writes per 1 KB, index writes per changed entry, and what one operation consumed on one table.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/storage/change.h"

namespace ddbd {

// ReturnConsumedCapacity: nothing, the total per table, or the total with its table and index
// parts.
enum class ReturnConsumedCapacity { kNone, kTotal, kIndexes };

// Read units for `size_bytes` read at once: one per 4 KB or part of one, at least one (a missing
// item still costs), half of that for an eventually consistent read.
double ReadUnits(uint64_t size_bytes, bool consistent_read);
// Write units for an item of `size_bytes`: one per 1 KB or part of one, at least one.
double WriteUnits(uint64_t size_bytes);
// What a committed change costs the table itself: the larger of the item before and after (a
// delete of nothing, or a failed condition on nothing, still costs one).
double TableWriteUnits(const Committed& change);
// What it costs one index: a new entry or a removed one costs its size in 1 KB units; a key
// change both; a changed projected item the new entry's; an entry that did not change nothing.
double IndexWriteUnits(const IndexEntryChange& change);

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
