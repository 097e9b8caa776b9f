// What a write's answer waits for: its last record in the engine's write-ahead log. Every write
// outcome carries one (Engine::WhenDurable takes it), so durability travels with the write and
// not with the thread that made it.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ddbd {

struct Ticket {
  // The record's number in its engine's log, 1, 2, ...; 0 when the write logged nothing (memory
  // only, or it changed nothing).
  uint64_t number = 0;

  bool pending() const { return number != 0; }
  // Records reach the disk in order, so the later of two tickets covers both.
  void Add(Ticket other) { number = std::max(number, other.number); }
};

}  // namespace ddbd
