#include "engine/persistence/recovery.h"

#include <map>

#include "engine/persistence/log_writer.h"

namespace ddbd {
namespace {

// What a later segment's header says of the one before it.
struct Claim {
  size_t by = 0;  // the index of the segment that says it
  uint64_t bytes = 0;
  bool may_be_torn = false;
};

std::string Plural(size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// What skipping from (segment `index`, `offset`) to the end would lose.
std::string WouldLose(const std::vector<SegmentSummary>& segments, size_t index, size_t offset,
                      const std::optional<uint64_t>& expected_bytes) {
  const SegmentSummary& segment = segments[index];
  std::string lost;
  if (!segment.contents.damaged && expected_bytes &&
      *expected_bytes > segment.contents.valid_bytes) {
    lost = std::to_string(*expected_bytes - segment.contents.valid_bytes) +
           " bytes of records the next segment says this one held";
  } else if (segment.contents.damaged) {
    lost = std::to_string(segment.size - offset) + " bytes of this file";
    if (segment.contents.records_after > 0) {
      lost += segment.contents.version == 1 ? " (with readable records among them)"
                                            : " (" +
                                                  Plural(segment.contents.records_after,
                                                         "readable record", "readable records") +
                                                  ")";
    }
  }
  size_t later = 0;
  size_t later_bytes = 0;
  size_t later_records = 0;
  for (size_t i = index + 1; i < segments.size(); ++i) {
    if (segments[i].contents.empty) continue;
    ++later;
    later_bytes += segments[i].size;
    later_records += segments[i].records;
  }
  if (later > 0) {
    if (!lost.empty()) lost += ", and ";
    lost += Plural(later, "later segment", "later segments") + " (" +
            Plural(later_records, "record", "records") + ", " + std::to_string(later_bytes) +
            " bytes)";
  }
  return lost.empty() ? "nothing readable" : lost;
}

}  // namespace

RecoveryPlan PlanRecovery(const std::vector<SegmentSummary>& segments,
                          const std::string& directory) {
  RecoveryPlan plan;
  // The newest whole checkpoint replaces every segment below it (version 1 marked none).
  size_t start = 0;
  for (size_t i = segments.size(); i-- > 0;) {
    const LogContents& contents = segments[i].contents;
    if (contents.version >= 2 && (contents.flags & kLogCheckpoint) != 0 && !contents.damaged) {
      start = i;
      plan.checkpoint = i;
      break;
    }
  }
  plan.skipped = start;
  std::map<uint64_t, size_t> by_number;
  std::map<uint64_t, Claim> claims;
  std::optional<size_t> newest;
  for (size_t i = start; i < segments.size(); ++i) {
    by_number[segments[i].number] = i;
    if (!segments[i].contents.empty) newest = i;
    const PreviousSegment& previous = segments[i].contents.previous;
    if (previous.number != 0) {
      claims[previous.number] = {i, previous.bytes,
                                 (segments[i].contents.flags & kLogPreviousMayBeTorn) != 0};
    }
  }
  auto refuse = [&](size_t index, size_t offset, const std::string& what,
                    const std::optional<uint64_t>& expected) {
    plan.corruption = directory + "/" + segments[index].name + ": " + what + " at offset " +
                      std::to_string(offset) + "; starting would lose " +
                      WouldLose(segments, index, offset, expected);
    plan.cut = RecoveryPlan::Cut{index, offset};
  };
  for (size_t i = start; i < segments.size() && !plan.cut; ++i) {
    const SegmentSummary& segment = segments[i];
    const LogContents& contents = segment.contents;
    // A later segment names one that is not there (and no checkpoint replaced it).
    const PreviousSegment& previous = contents.previous;
    if (previous.number != 0 && previous.number >= segments[start].number &&
        by_number.count(previous.number) == 0) {
      refuse(i, 0,
             "segment " + LogSegmentName(previous.number) +
                 ", which this one names as the one "
                 "written before it (" +
                 std::to_string(previous.bytes) + " bytes), is missing",
             std::nullopt);
      break;
    }
    auto claim = claims.find(segment.number);
    // A header cut short held nothing, unless a later segment says it did.
    if (contents.empty && (claim == claims.end() || claim->second.bytes == 0)) continue;
    size_t end = contents.valid_bytes;
    if (claim != claims.end() && claim->second.by > i) {
      const Claim& said = claim->second;
      if (contents.valid_bytes < said.bytes) {
        refuse(i, contents.valid_bytes,
               contents.damaged ? contents.damage
                                : "segment ends early (" + segments[said.by].name +
                                      " says it held " + std::to_string(said.bytes) + " bytes)",
               said.bytes);
        break;
      }
      if (contents.valid_bytes > said.bytes || contents.damaged) {
        // Past what the next segment names: a failed write it wrote again, and so a torn one.
        if (!said.may_be_torn) {
          refuse(i, said.bytes,
                 contents.valid_bytes > said.bytes
                     ? "records after the end " + segments[said.by].name + " names for it"
                     : contents.damage,
                 std::nullopt);
          break;
        }
        plan.torn.push_back(
            {i, static_cast<size_t>(said.bytes), segment.size - static_cast<size_t>(said.bytes),
             "a write that failed and was written again in " + segments[said.by].name});
      }
      end = static_cast<size_t>(said.bytes);
    } else if (contents.damaged) {
      // Nothing names this segment's end. The newest may end in a write a crash cut short;
      // version 1 segments could end so anywhere (a crash left them, then a new one started).
      const bool crash_could_leave =
          !contents.readable_after() && (i == newest || contents.version == 1);
      if (!crash_could_leave) {
        refuse(i, contents.valid_bytes, contents.damage, std::nullopt);
        break;
      }
      plan.torn.push_back({i, contents.valid_bytes, contents.bytes_after, contents.damage});
      if (i == newest) plan.previous_may_be_torn = true;
    }
    plan.replay.push_back({i, end});
    plan.previous = {segment.number, end};
  }
  if (plan.cut) {
    // Point-in-time: the damaged segment up to the damage, the rest moved aside.
    const RecoveryPlan::Cut cut = *plan.cut;
    if (cut.offset > 0) {
      plan.replay.push_back({cut.index, cut.offset});
      plan.previous = {segments[cut.index].number, cut.offset};
    }
    plan.previous_may_be_torn = false;
  }
  return plan;
}

}  // namespace ddbd
