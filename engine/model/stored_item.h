// An item as the engine hands it in and out: its blob (engine/model/item_codec.h) and its
// DynamoDB size.
#pragma once

#include <cstdint>
#include <string>

namespace ddbd {

struct StoredItem {
  std::string blob;
  uint32_t size_bytes = 0;
};

}  // namespace ddbd
