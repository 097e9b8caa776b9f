#include "protocol/expression/tokenizer.h"

#include "protocol/ascii.h"

namespace ddbd {
namespace {

// Room for the tokens of most expressions (`pk = :p AND sk > :s` is 8 with the end), so the
// vector is allocated once rather than at 1, 2, 4 and 8.
constexpr size_t kTokensReserved = 16;

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  tokens.reserve(kTokensReserved);
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (AsciiIsSpace(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    TokenKind kind = TokenKind::kSymbol;
    // A name starts with a letter: DynamoDB reports a syntax error at a leading '_'.
    if (AsciiIsLetter(c)) {
      kind = TokenKind::kIdentifier;
      while (i < text.size() && AsciiIsWordChar(text[i])) ++i;
    } else if (AsciiIsDigit(c)) {
      kind = TokenKind::kNumber;
      while (i < text.size() && AsciiIsDigit(text[i])) ++i;
    } else if ((c == '#' || c == ':') && i + 1 < text.size() && AsciiIsWordChar(text[i + 1])) {
      kind = c == '#' ? TokenKind::kNamePlaceholder : TokenKind::kValuePlaceholder;
      ++i;
      while (i < text.size() && AsciiIsWordChar(text[i])) ++i;
    } else if ((c == '<' || c == '>') && i + 1 < text.size() &&
               (text[i + 1] == '=' || (c == '<' && text[i + 1] == '>'))) {
      i += 2;
    } else {
      ++i;
    }
    tokens.push_back({kind, text.substr(start, i - start), start});
  }
  tokens.push_back({TokenKind::kEnd, "<EOF>", text.size()});
  return tokens;
}

}  // namespace

TokenStream::TokenStream(std::string_view text, std::string_view expression_kind)
    : text_(text), kind_(expression_kind), tokens_(Tokenize(text)) {}

const Token& TokenStream::Peek(size_t ahead) const {
  return tokens_[std::min(position_ + ahead, tokens_.size() - 1)];
}

const Token& TokenStream::Next() {
  const Token& token = Peek();
  if (position_ + 1 < tokens_.size()) ++position_;
  return token;
}

bool TokenStream::Accept(std::string_view symbol) {
  if (Peek().kind != TokenKind::kSymbol || Peek().text != symbol) return false;
  Next();
  return true;
}

bool TokenStream::AcceptKeyword(std::string_view word) {
  if (!PeekKeyword(word)) return false;
  Next();
  return true;
}

bool TokenStream::PeekKeyword(std::string_view word) const {
  return Peek().kind == TokenKind::kIdentifier && EqualsIgnoringCase(Peek().text, word);
}

Error TokenStream::SyntaxError() const {
  // DynamoDB's "near" runs from the token before the offending one through the one after it.
  const Token& token = Peek();
  const Token& next = Peek(1);
  const size_t near_start = position_ > 0 ? tokens_[position_ - 1].offset : token.offset;
  const Token& last = next.kind == TokenKind::kEnd ? token : next;
  const size_t near_end =
      last.kind == TokenKind::kEnd ? text_.size() : last.offset + last.text.size();
  return Invalid("Syntax error; token: \"" + std::string(token.text) + "\", near: \"" +
                 std::string(text_.substr(near_start, near_end - near_start)) + "\"");
}

Error TokenStream::Invalid(const std::string& detail) const {
  return Error::Validation("Invalid " + std::string(kind_) + ": " + detail);
}

}  // namespace ddbd
