// DynamoDB's reserved words: an attribute name that is one of them (in any case) must be written
// through an ExpressionAttributeNames placeholder.
#pragma once

#include <string_view>

namespace ddbd {

bool IsReservedWord(std::string_view word);

}  // namespace ddbd
