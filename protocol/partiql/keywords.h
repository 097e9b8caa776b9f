// PartiQL's reserved words: a bare name spelled as one is a keyword, never an attribute.
#pragma once

#include <string>
#include <string_view>

namespace ddbd::partiql {

// True if `word` (any case) is reserved.
bool IsReservedWord(std::string_view word);

}  // namespace ddbd::partiql
