// The one check of a resource-based policy's document.
#pragma once

#include <optional>
#include <string>

#include "engine/api/policies.h"
#include "engine/error.h"

namespace ddbd {

// ValidationException for a document over kMaxPolicyBytes (wording unconfirmed). Its contents are
// not checked: nothing is enforced.
Status CheckResourcePolicy(const std::string& policy);

}  // namespace ddbd
