// An export's objects, in DynamoDB's layout under <prefix>/AWSDynamoDB/<export id>/: `_started`
// (empty, written first: the bucket takes writes), data/<name>.json.gz or .ion.gz (one item per
// line, gzip; an incremental export's go to the prefix's shared AWSDynamoDB/data/ instead, one
// changed item per line), manifest-files.json (a line per data file: itemCount, md5Checksum, etag,
// dataFileS3Key) and manifest-summary.json (the export's summary), each manifest followed by its
// .md5 (base64 MD5 of the manifest's bytes). The summary goes last: a reader that finds it finds
// every file it lists whole (each object is published whole, engine/exports/object_store.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/exports.h"
#include "engine/api/item_lines.h"
#include "engine/exports/object_store.h"
#include "engine/storage/point_in_time_history.h"
#include "engine/storage/table_items.h"

namespace ddbd {

// "AWSDynamoDB/<id>/" under the export's prefix ("" or "<prefix>/").
std::string ExportFolder(const ExportDescription& description);

// The data files hold at most this many items each (DynamoDB writes one or more per partition).
inline constexpr int64_t kItemsPerDataFile = 250'000;

struct ExportWritten {
  int64_t item_count = 0;
  int64_t billed_size_bytes = 0;  // the items' DynamoDB sizes
  std::string manifest_key;       // the summary's key
  int64_t end_ms = 0;             // when the data was written, as the summary records it
};

// What DynamoDB bills an incremental export at least: 10 MB.
inline constexpr int64_t kIncrementalMinimumBytes = 10'000'000;

// Writes the full export `description` names: `items` as of its export time. `end_ms` gives the
// end time the summary records (called once the data is written); `stopping` cuts it short.
std::optional<ObjectFailure> WriteFullExport(ObjectStore& store, const ItemLines& lines,
                                             const ExportDescription& description,
                                             const TableItems& items,
                                             const PointInTimeHistory& history,
                                             const std::function<int64_t()>& end_ms,
                                             const std::atomic<bool>& stopping,
                                             ExportWritten& written);

// Writes the incremental export `description` names: one line per item changed in its window
// (engine/exports/table_at_moment.h's ChangesInWindow), with its keys (`key_names`: the table's
// key attributes), its image at the window's end and, in NEW_AND_OLD_IMAGES, at its start.
std::optional<ObjectFailure> WriteIncrementalExport(
    ObjectStore& store, const ItemLines& lines, const ExportDescription& description,
    const std::vector<std::string>& key_names, const TableItems& items,
    const PointInTimeHistory& history, const std::function<int64_t()>& end_ms,
    const std::atomic<bool>& stopping, ExportWritten& written);

}  // namespace ddbd
