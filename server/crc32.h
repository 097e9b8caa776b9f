// CRC-32 (IEEE) of a response body, sent as x-amz-crc32; SDKs verify it and retry on mismatch.
#pragma once

#include <cstdint>
#include <string_view>

namespace ddbd {

uint32_t Crc32(std::string_view bytes);

}  // namespace ddbd
