// The heap's page size.
#pragma once

namespace ddbd {

// Has mimalloc back its heap with 2 MiB pages (transparent huge pages, which it asks for with
// madvise): the regions it maps from now on, and the one it mapped when it started, which holds
// a table of up to ~30 MB. Unless MIMALLOC_LARGE_OS_PAGES is set in the environment.
//
// Items are reached through random pointers. With 4 KiB pages nearly every such load also misses
// the TLB, and a page walk under virtualisation costs several more memory reads: 2 MiB pages took
// about 0.4 us of server CPU off a 10-item Query on 1M items and 0.3 off a GetItem; backing the
// start-up region too (where scripts/bench's 100k items live) took a GetItem from 10.4 to 9.1 us,
// a PutItem from 14.1 to 12.1 and a Query from 15.3 to 13.1 (docs/performance.md, part 16).
// Does nothing without mimalloc (sanitizer builds).
void UseLargeHeapPages();

// Hands the heap's free pages back to the operating system now (mimalloc's collection, or
// glibc's malloc_trim): after large answers are gone, their memory leaves the process too.
void ReleaseFreeMemory();

}  // namespace ddbd
