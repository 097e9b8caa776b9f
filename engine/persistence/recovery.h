// Recovery's judgement of a data directory's log segments before anything is replayed: which
// segments and bytes to replay, which damage a crash explains (a torn write at the end of the
// newest segment, or where a later segment's header says a write failed), and which it does not
// (anything else: a damaged record with readable ones after it, an older segment cut short, even
// at a record boundary, or missing). Unexplained damage refuses the start, naming the file, the
// offset and what would be lost, unless the operator asked for point-in-time recovery: replay up
// to the damage and move the rest aside.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/sync_policy.h"
#include "engine/persistence/log_format.h"

namespace ddbd {

// One segment as read, without its records (kept for every segment while recovery decides).
struct SegmentSummary {
  std::string name;
  uint64_t number = 0;
  size_t size = 0;
  size_t records = 0;
  LogContents contents;  // its records, for the replay
};

struct RecoveryPlan {
  // The segments to replay, in order, each up to `end` (its records that start before it).
  struct Replay {
    size_t index = 0;
    size_t end = 0;
  };
  std::vector<Replay> replay;
  // The newest checkpoint (its index), and the segments it replaces, not read.
  std::optional<size_t> checkpoint;
  size_t skipped = 0;
  // Torn tails dropped (logged): the segment, where, how many bytes, and why.
  struct Torn {
    size_t index = 0;
    size_t offset = 0;
    size_t bytes = 0;
    std::string what;
  };
  std::vector<Torn> torn;
  // Damage a crash does not explain: the file, offset and what would be lost, said in full.
  std::string corruption;
  // Where replay stops at it: the segment and offset; that segment's bytes from there and every
  // later segment are what point-in-time recovery moves aside.
  struct Cut {
    size_t index = 0;
    size_t offset = 0;
  };
  std::optional<Cut> cut;
  // What the writer's first segment names as the one before it, and whether a torn write
  // follows that one's good bytes.
  PreviousSegment previous;
  bool previous_may_be_torn = false;
};

// `segments` in number order; `directory` names files in messages.
RecoveryPlan PlanRecovery(const std::vector<SegmentSummary>& segments,
                          const std::string& directory);

}  // namespace ddbd
