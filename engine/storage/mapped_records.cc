#include "engine/storage/mapped_records.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace ddbd::mapped_records {
namespace {

struct Region {
  // Written once, before `adopted` counts the region in (release), so a reader that loaded
  // `adopted` (acquire) sees them.
  uintptr_t begin = 0;
  uintptr_t end = 0;
  std::atomic<int64_t> holds = 0;
};

Region regions[kMaxRegions];
std::atomic<int> adopted = 0;
std::atomic<int> mapped = 0;
std::mutex adopting;

void LetGo(int region, int64_t count) {
  Region& r = regions[region];
  if (r.holds.fetch_sub(count, std::memory_order_acq_rel) != count) return;
  // The last record gone: the file's pages and the file go, the addresses stay reserved.
  ::mmap(reinterpret_cast<void*>(r.begin), r.end - r.begin, PROT_NONE,
         MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  mapped.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace

int Adopt(void* address, size_t size) {
  std::lock_guard lock(adopting);
  const int region = adopted.load(std::memory_order_relaxed);
  if (region == kMaxRegions || size == 0) return -1;
  regions[region].begin = reinterpret_cast<uintptr_t>(address);
  regions[region].end = regions[region].begin + size;
  regions[region].holds.store(1, std::memory_order_relaxed);
  mapped.fetch_add(1, std::memory_order_relaxed);
  adopted.store(region + 1, std::memory_order_release);
  // Records are read where they fall from now on, not in order.
  ::madvise(address, size, MADV_NORMAL);
  return region;
}

void Hold(int region, size_t records) {
  regions[region].holds.fetch_add(static_cast<int64_t>(records), std::memory_order_relaxed);
}

void Release(int region) { LetGo(region, 1); }

bool ReleaseRecord(const void* record) {
  const int region = RegionOf(record);
  if (region < 0) return false;
  LetGo(region, 1);
  return true;
}

int RegionOf(const void* record) {
  const int count = adopted.load(std::memory_order_acquire);
  const auto at = reinterpret_cast<uintptr_t>(record);
  for (int region = 0; region < count; ++region) {
    if (at >= regions[region].begin && at < regions[region].end) return region;
  }
  return -1;
}

int64_t Holds(int region) { return regions[region].holds.load(std::memory_order_relaxed); }

int Adopted() { return adopted.load(std::memory_order_acquire); }
int Mapped() { return mapped.load(std::memory_order_relaxed); }

}  // namespace ddbd::mapped_records
