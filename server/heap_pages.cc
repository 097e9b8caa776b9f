#include "server/heap_pages.h"

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

}  // namespace ddbd
