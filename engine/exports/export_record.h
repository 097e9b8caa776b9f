// An export's file under <db-path>/exports: one log segment (engine/persistence/log_format.h, so
// it is checksummed) holding a kExport record, the export's description in tagged fields.
#pragma once

#include <string>
#include <string_view>

#include "engine/api/exports.h"
#include "engine/error.h"

namespace ddbd {

// "<export id>.export".
std::string ExportFileName(std::string_view export_arn);
std::string EncodeExportFile(const ExportDescription& description);
// InternalServerError naming `file_name` for a file that is not a whole export record.
Result<ExportDescription> DecodeExportFile(std::string_view file_name, std::string_view bytes);

}  // namespace ddbd
