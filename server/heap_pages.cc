// 2 MiB pages for the heap.
//
// A large table's items are reached through random pointers. With 4 KiB pages nearly every such
// load also misses the TLB, and a page walk under virtualisation costs several more memory reads:
// 2 MiB pages (transparent huge pages, which mimalloc asks for with madvise) took a 10-item Query
// on 1M items from 22.2 to 21.1 us of server CPU, and GetItem from 11.8 to 11.5
// (docs/performance.md). Idle RSS grows by ~2 MB.
//
// mimalloc reads its options from the environment when it starts, and maps its first heap region
// then, so the option is set before any library's initialiser runs: from .preinit_array, where
// setting an option only stores it. An explicit MIMALLOC_LARGE_OS_PAGES in the environment wins.
// Not in sanitizer builds, which do without mimalloc.
#ifdef DDBD_MIMALLOC
#include <mimalloc.h>

#include <cstring>

namespace {

void UseLargeHeapPages(int, char**, char** environment) {
  // The environment as the kernel passed it: getenv is not ready this early.
  static constexpr char kSetting[] = "MIMALLOC_LARGE_OS_PAGES=";
  for (char** entry = environment; entry != nullptr && *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, kSetting, sizeof(kSetting) - 1) == 0) return;
  }
  mi_option_enable(mi_option_large_os_pages);
}

__attribute__((section(".preinit_array"), used)) void (*const kUseLargeHeapPages)(int, char**,
                                                                                  char**) =
    UseLargeHeapPages;

}  // namespace
#endif
