// Item records that live in a mapped file (a checkpoint's item images or the log's puts,
// engine/persistence/item_images.h) instead of an allocation of their own: ItemRecord::Destroy
// counts them down, and the file's mapping goes with the last of them.
//
// A region is never unmapped outright: once its last record goes it is replaced by an
// inaccessible reservation of the same addresses (no memory, no file), so no later allocation
// can land where a record is looked for, and the look-up needs no lock. A process adopts at most
// kMaxRegions mappings in its life (a server one a start; test processes open many stores);
// after that the replay copies records as before. A record's look-up scans the regions adopted:
// none in a server started without a checkpoint, one in a server started from one.
//
// Thread safety: any function from any thread.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ddbd::mapped_records {

inline constexpr int kMaxRegions = 4096;

// Takes over the mapping [address, address + size): the registry unmaps it from now on. Returns
// the region, held once by the caller (let go with Release), or -1 (the registry is full) when
// the caller keeps it.
int Adopt(void* address, size_t size);
// `records` more records in `region`, each let go by ReleaseRecord (ItemRecord::Destroy).
void Hold(int region, size_t records);
// The caller's own hold on `region` goes.
void Release(int region);
// For a record in a region: lets it go and returns true. False for any other address.
bool ReleaseRecord(const void* record);
// The region `record` lies in, or -1.
int RegionOf(const void* record);
// The holds on `region` now: its records, and the caller's own until Release.
int64_t Holds(int region);
// Regions adopted (released or not), and those still mapped: for tests.
int Adopted();
int Mapped();

}  // namespace ddbd::mapped_records
