// The tokens of DynamoDB's PartiQL: names (bare or "quoted"), 'string' literals, numbers, `?`
// parameters and punctuation, with `--` and `/* */` comments skipped. Keywords are bare names,
// recognised by the parser in any case.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd::partiql {

enum class TokenKind {
  kName,        // bare: [A-Za-z_][A-Za-z0-9_$]*
  kQuotedName,  // "..." ("" inside stands for ")
  kString,      // '...' ('' inside stands for ')
  kNumber,      // 12, 1.5, .5, 1e-3 (the sign is a separate token)
  kParameter,   // ?
  kSymbol,      // ( ) [ ] { } << >> , . : ; * = <> != < <= > >= + - ||
  kEnd,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // a name's or string's value (quotes removed, doubled quotes undone)
  size_t offset = 0;
};

// The statement's tokens, ending with kEnd. ValidationException "Statement wasn't well formed,
// can't be processed: " (nothing after the colon, as DynamoDB sends it for text its lexer cannot
// read) for an unknown character, an unterminated string, name or comment, or a number whose
// exponent does not fit 32 bits.
Result<std::vector<Token>> Tokenize(std::string_view statement);

}  // namespace ddbd::partiql
