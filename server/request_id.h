// x-amzn-RequestId values: 52 characters of [A-Z0-9], the shape DynamoDB sends.
#pragma once

#include <string>

namespace ddbd {

// Thread-safe; each thread draws from its own generator.
std::string NewRequestId();

}  // namespace ddbd
