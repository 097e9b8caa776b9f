// A table's vector index (engine/api/tables.h) as the log and checkpoints keep it, inside its
// table's description (catalog_codec.h): tagged fields (fields.h), so a later ddbd adds fields.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/api/tables.h"

namespace ddbd {

std::string EncodeVectorIndex(const VectorIndexDescription& index);
// Fields it does not know are skipped; nullopt for malformed bytes.
std::optional<VectorIndexDescription> DecodeVectorIndex(std::string_view bytes);

}  // namespace ddbd
