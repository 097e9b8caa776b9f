// x-amzn-RequestId values: 52 characters of [A-Z0-9], the shape DynamoDB sends.
#pragma once

#include <string>

namespace ddbd {

// Thread-safe; each thread draws from its own generator.
std::string NewRequestId();
// The same into `id`, in the room it has (an answer slot's id, reused request after request).
void AssignRequestId(std::string& id);

}  // namespace ddbd
