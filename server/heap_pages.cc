#include "server/heap_pages.h"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#ifdef DDBD_MIMALLOC
#include <mimalloc.h>
#endif

namespace ddbd {

namespace {

#ifdef DDBD_MIMALLOC
// Linux 6.1's value; older C library headers lack the name.
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

// The mapping of /proc/self/maps that holds `address`, as [start, end); {0, 0} if none.
std::pair<uintptr_t, uintptr_t> MappingOf(uintptr_t address) {
  std::FILE* maps = std::fopen("/proc/self/maps", "re");
  if (maps == nullptr) return {0, 0};
  std::pair<uintptr_t, uintptr_t> found{0, 0};
  char line[512];
  while (std::fgets(line, sizeof line, maps) != nullptr) {
    unsigned long start = 0;
    unsigned long end = 0;
    if (std::sscanf(line, "%lx-%lx", &start, &end) == 2 && start <= address && address < end) {
      found = {start, end};
      break;
    }
  }
  std::fclose(maps);
  return found;
}
#endif

}  // namespace

void UseLargeHeapPages() {
#ifdef DDBD_MIMALLOC
  // mimalloc read its environment when it started; an explicit setting there wins.
  if (std::getenv("MIMALLOC_LARGE_OS_PAGES") != nullptr) return;
  mi_option_enable(mi_option_large_os_pages);
  // The region mimalloc mapped when it started (before main; in the static binary before any
  // initialiser of ours could set the option) is where a table of up to ~30 MB lives: it is
  // marked too, so its pages not touched yet come as 2 MiB pages, and what is touched already
  // is folded into them.
  void* probe = std::malloc(64);
  const auto [start, end] = MappingOf(reinterpret_cast<uintptr_t>(probe));
  std::free(probe);
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const uintptr_t first = (start + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = end & ~(kHugePage - 1);
  if (first >= last) return;
  void* region = reinterpret_cast<void*>(first);
  if (madvise(region, last - first, MADV_HUGEPAGE) != 0) return;  // no transparent huge pages
  // Linux 6.1 and later fold the touched 2 MiB ranges now (older ones say EINVAL; the kernel's
  // own khugepaged does it later); ranges not touched stay unbacked.
  madvise(region, last - first, MADV_COLLAPSE);
#endif
}

void ReleaseFreeMemory() {
#ifdef DDBD_MIMALLOC
  mi_collect(true);
#else
  malloc_trim(0);
#endif
}

}  // namespace ddbd
