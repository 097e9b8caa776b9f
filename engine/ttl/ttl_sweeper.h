// Time to Live: UpdateTimeToLive and DescribeTimeToLive over the catalog, and the sweep that
// deletes expired items (each indexed by its table's ExpiryIndex, engine/storage/expiry_index.h).
//
// Thread safety: every member may be called from any thread; updates run one at a time.
#pragma once

#include <cstddef>
#include <mutex>
#include <string_view>

#include "engine/api/time_to_live.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"
#include "engine/storage/held_items.h"

namespace ddbd {

class TimeToLive {
 public:
  // Items `held` by transactions in flight are swept later.
  TimeToLive(Catalog& catalog, const HeldItems& held);

  // As Engine::UpdateTimeToLive and Engine::DescribeTimeToLive state them.
  Result<TimeToLiveOutcome> Update(const UpdateTimeToLiveArgs& args);
  Result<TimeToLiveDescription> Describe(std::string_view table_name) const;
  // Deletes up to `max_items` items due at the clock's now, holding a table for a few dozen
  // deletes at a time; returns how many it deleted.
  size_t SweepExpired(size_t max_items);

 private:
  Catalog& catalog_;
  const HeldItems& held_;
  // One update at a time: it indexes a table's items outside the catalog's lock.
  std::mutex update_mutex_;
};

}  // namespace ddbd
