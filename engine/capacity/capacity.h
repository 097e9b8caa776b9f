// Capacity units as DynamoDB counts them (../shared/aws-semantics.md section 1): reads per 4 KB,
// writes per 1 KB, index writes per changed entry, and what one operation consumed on one table.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/capacity.h"
#include "engine/storage/change.h"

namespace ddbd {

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

}  // namespace ddbd
