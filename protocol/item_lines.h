// The lines of an export's data files (engine/api/item_lines.h): an item as DynamoDB JSON,
// {"Item":{"pk":{"S":"a"},...}}, or as Amazon Ion text, $ion_1_0 {Item:{pk:"a",...}}, as
// DynamoDB's export format documents them (numbers as Ion decimals, binaries as blobs, sets as
// lists annotated $dynamodb_SS, $dynamodb_NS or $dynamodb_BS).
#pragma once

#include <memory>

#include "engine/api/item_lines.h"

namespace ddbd {

std::shared_ptr<const ItemLines> NewItemLines();

}  // namespace ddbd
