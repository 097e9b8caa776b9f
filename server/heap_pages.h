// The heap's page size.
#pragma once

namespace ddbd {

// Has mimalloc back the heap it maps from now on with 2 MiB pages (transparent huge pages, which
// it asks for with madvise), unless MIMALLOC_LARGE_OS_PAGES is set in the environment.
//
// A large table's items are reached through random pointers. With 4 KiB pages nearly every such
// load also misses the TLB, and a page walk under virtualisation costs several more memory reads:
// 2 MiB pages took about 0.4 us of server CPU off a 10-item Query on 1M items and 0.3 off a
// GetItem (three A/B runs, docs/performance.md). The region mimalloc mapped at start-up keeps 4 KiB
// pages: backing it with 2 MiB pages made start-up slower (median +0.4 ms, worst case up to
// 24 ms) and idle RSS larger (5.3 -> 7.1 MB), for a tenth of a large table. Does nothing without
// mimalloc (sanitizer builds).
void UseLargeHeapPages();

// Hands the heap's free pages back to the operating system now (mimalloc's collection, or
// glibc's malloc_trim): after large answers are gone, their memory leaves the process too.
void ReleaseFreeMemory();

}  // namespace ddbd
