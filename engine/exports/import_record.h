// An import's file under <db-path>/imports: one log segment holding a kImport record, the
// import's description in tagged fields (the table as created in catalog_codec's form).
#pragma once

#include <string>
#include <string_view>

#include "engine/api/imports.h"
#include "engine/error.h"

namespace ddbd {

// "<import id>.import".
std::string ImportFileName(std::string_view import_arn);
std::string EncodeImportFile(const ImportTableDescription& description);
// InternalServerError naming `file_name` for a file that is not a whole import record.
Result<ImportTableDescription> DecodeImportFile(std::string_view file_name, std::string_view bytes);

}  // namespace ddbd
