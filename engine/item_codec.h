// Stored items are one contiguous blob each, not a tree of heap nodes: attribute count, then
// (name, type, payload) per attribute, lengths as varints. Compact in memory, cheap to copy, and
// the form persistence will write.
#pragma once

#include <string>
#include <string_view>

#include "engine/attribute_value.h"

namespace ddbd {

std::string EncodeItem(const Item& item);
// `blob` must come from EncodeItem.
Item DecodeItem(std::string_view blob);

}  // namespace ddbd
