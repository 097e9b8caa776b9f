#include "server/heap_pages.h"

#include <malloc.h>

#include <cstdlib>

#ifdef DDBD_MIMALLOC
#include <mimalloc.h>
#endif

namespace ddbd {

void UseLargeHeapPages() {
#ifdef DDBD_MIMALLOC
  // mimalloc read its environment when it started; an explicit setting there wins.
  if (std::getenv("MIMALLOC_LARGE_OS_PAGES") == nullptr) {
    mi_option_enable(mi_option_large_os_pages);
  }
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
