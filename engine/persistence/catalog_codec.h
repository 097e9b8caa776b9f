// A table's description as the log and snapshots keep it (tagged fields, fields.h): everything
// DescribeTable shows and the engine remembers of a table (indexes and their slots, stream and
// TTL settings, throughput history, tags), so a restart rebuilds the same table.
#pragma once

#include <string>
#include <string_view>

#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

std::string EncodeTableDescription(const TableDescription& table);
// InternalServerError naming what was malformed.
Result<TableDescription> DecodeTableDescription(std::string_view bytes);

}  // namespace ddbd
