// Tokens of DynamoDB's expression language, and a cursor over them that builds DynamoDB's
// "Invalid <Kind>Expression: Syntax error; token: "x", near: "y"" messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

enum class TokenKind {
  kIdentifier,        // name or keyword: [A-Za-z][A-Za-z0-9_]*
  kNamePlaceholder,   // #name
  kValuePlaceholder,  // :value
  kNumber,            // [0-9]+ (list indexes)
  kSymbol,            // ( ) [ ] , . = <> < <= > >= + - and any other single character
  kEnd,
};

struct Token {
  TokenKind kind;
  std::string_view text;
  size_t offset = 0;  // in the expression
};

class TokenStream {
 public:
  // `expression_kind` names the member in messages, e.g. "ProjectionExpression": a literal, or
  // text that outlives the stream.
  TokenStream(std::string_view text, std::string_view expression_kind);

  const Token& Peek(size_t ahead = 0) const;
  const Token& Next();
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  // Consumes the next token if it is `symbol`.
  bool Accept(std::string_view symbol);
  // Consumes the next token if it is the keyword `word` (any case).
  bool AcceptKeyword(std::string_view word);
  // True if the next token is the keyword `word` (any case).
  bool PeekKeyword(std::string_view word) const;

  // "Invalid <Kind>: Syntax error; token: ..., near: ..." at the next token.
  Error SyntaxError() const;
  // "Invalid <Kind>: <detail>".
  Error Invalid(const std::string& detail) const;

 private:
  std::string_view text_;
  std::string_view kind_;
  std::vector<Token> tokens_;
  size_t position_ = 0;
};

}  // namespace ddbd
