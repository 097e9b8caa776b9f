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
  // marked too, so its pages not touched yet come as 2 MiB pages. The few touched already are
  // left to the kernel's khugepaged: folding them now (MADV_COLLAPSE) cost 0.6 ms of start-up
  // and 2 MB of idle RSS for no gain measured.
  void* probe = std::malloc(64);
  const auto [start, end] = MappingOf(reinterpret_cast<uintptr_t>(probe));
  std::free(probe);
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const uintptr_t first = (start + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = end & ~(kHugePage - 1);
  if (first >= last) return;
  madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // fails without THP
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
