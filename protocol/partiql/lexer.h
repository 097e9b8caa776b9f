// The tokens of DynamoDB's PartiQL: names (bare or "quoted"), 'string' literals, numbers, `?`
// parameters and punctuation, with `--` and `/* */` comments skipped. Keywords are bare names,
// recognised by the parser in any case.
#pragma once

#include <cstdint>
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
  // Where it stands as DynamoDB's messages say it ("at 1:8:16"): its line and column from 1,
  // and its length as written, in characters.
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t length = 0;
};

// " at <line>:<column>:<length>", as DynamoDB places a token in some of its messages.
std::string At(const Token& token);

// The statement's tokens, ending with kEnd. ValidationException "Statement wasn't well formed,
// can't be processed: " (nothing after the colon, as DynamoDB sends it for text its lexer cannot
// read) for an unknown character, an unterminated string, name or comment, or a number whose
// exponent does not fit 32 bits.
Result<std::vector<Token>> Tokenize(std::string_view statement);

}  // namespace ddbd::partiql
