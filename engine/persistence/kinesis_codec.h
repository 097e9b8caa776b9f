// A table's Kinesis streaming destination (engine/api/kinesis.h) as the log and checkpoints keep
// it, inside its table's description (catalog_codec.h): tagged fields (fields.h), so a later
// ddbd adds fields.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/api/kinesis.h"

namespace ddbd {

std::string EncodeKinesisDestination(const KinesisDestination& destination);
// Fields it does not know are skipped; nullopt for malformed bytes.
std::optional<KinesisDestination> DecodeKinesisDestination(std::string_view bytes);

}  // namespace ddbd
