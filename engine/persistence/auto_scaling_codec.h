// A table's auto scaling settings (engine/api/auto_scaling.h) as the log and checkpoints keep
// them, inside its table's description (catalog_codec.h): tagged fields (fields.h).
#pragma once

#include <string>
#include <string_view>

#include "engine/api/auto_scaling.h"

namespace ddbd {

std::string EncodeTableAutoScaling(const TableAutoScaling& settings);
// Fields it does not know are skipped.
TableAutoScaling DecodeTableAutoScaling(std::string_view bytes);

}  // namespace ddbd
