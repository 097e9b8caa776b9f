// PartiQL's reserved words: a bare name spelled as one is a keyword, never an attribute.
#pragma once

#include <string>
#include <string_view>

namespace ddbd::partiql {

// `word` in upper case (ASCII letters only; keywords are ASCII).
std::string Upper(std::string_view word);

// True if `word` (any case) is reserved.
bool IsReservedWord(std::string_view word);

// True if `word` is `keyword` (given in upper case) in any case.
bool EqualsKeyword(std::string_view word, std::string_view keyword);

}  // namespace ddbd::partiql
