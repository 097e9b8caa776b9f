// A global table's member (engine/api/replicas.h) as the log and checkpoints keep it, inside its
// table's description (catalog_codec.h): tagged fields (fields.h), so a later ddbd adds fields.
#pragma once

#include <string>
#include <string_view>

#include "engine/api/replicas.h"

namespace ddbd {

std::string EncodeReplica(const ReplicaDescription& replica);
// Fields it does not know are skipped.
ReplicaDescription DecodeReplica(std::string_view bytes);

}  // namespace ddbd
