#include "protocol/partiql/lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNamePart(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// What DynamoDB answers for text its lexer cannot read: the envelope with nothing after it.
Error Unreadable() { return Error::Validation(NotWellFormed("")); }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      if (Status skipped = SkipSpaceAndComments(); !skipped.ok()) return skipped.error();
      Token token;
      token.offset = at_;
      if (at_ == text_.size()) {
        tokens.push_back(std::move(token));
        Place(tokens);
        return tokens;
      }
      if (Status read = ReadToken(token); !read.ok()) return read.error();
      // Its length in bytes for now; Place counts characters.
      token.length = static_cast<uint32_t>(at_ - token.offset);
      tokens.push_back(std::move(token));
    }
  }

 private:
  char Peek(size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }

  Status SkipSpaceAndComments() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++at_;
      } else if (c == '-' && Peek(1) == '-') {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else if (c == '/' && Peek(1) == '*') {
        const size_t end = text_.find("*/", at_ + 2);
        if (end == std::string_view::npos) return Unreadable();
        at_ = end + 2;
      } else {
        break;
      }
    }
    return Ok{};
  }

  Status ReadToken(Token& token) {
    const char c = text_[at_];
    if (IsNameStart(c)) {
      token.kind = TokenKind::kName;
      const size_t start = at_;
      while (at_ < text_.size() && IsNamePart(text_[at_])) ++at_;
      token.text = std::string(text_.substr(start, at_ - start));
      return Ok{};
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return ReadNumber(token);
    if (c == '\'' || c == '"') return ReadQuoted(token, c);
    if (c == '?') {
      token.kind = TokenKind::kParameter;
      token.text = "?";
      ++at_;
      return Ok{};
    }
    static constexpr std::string_view kTwoCharacterSymbols[] = {
        "<<", ">>", "<>", "!=", "<=", ">=", "||"};
    for (std::string_view symbol : kTwoCharacterSymbols) {
      if (text_.substr(at_, 2) == symbol) {
        token.kind = TokenKind::kSymbol;
        token.text = std::string(symbol);
        at_ += 2;
        return Ok{};
      }
    }
    static constexpr std::string_view kSymbols = "()[]{},.:;*=<>+-";
    if (kSymbols.find(c) == std::string_view::npos) return Unreadable();
    token.kind = TokenKind::kSymbol;
    token.text = std::string(1, c);
    ++at_;
    return Ok{};
  }

  // Digits, an optional fraction and an optional exponent; DynamoDB's lexer refuses an
  // exponent, or a scale (fraction digits less the exponent), beyond 32 bits.
  Status ReadNumber(Token& token) {
    token.kind = TokenKind::kNumber;
    const size_t start = at_;
    while (IsDigit(Peek())) ++at_;
    int64_t fraction_digits = 0;
    if (Peek() == '.') {
      ++at_;
      while (IsDigit(Peek())) {
        ++at_;
        ++fraction_digits;
      }
    }
    if ((Peek() == 'e' || Peek() == 'E') &&
        (IsDigit(Peek(1)) || ((Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2))))) {
      ++at_;
      const bool negative = Peek() == '-';
      if (Peek() == '+' || Peek() == '-') ++at_;
      int64_t exponent = 0;
      while (IsDigit(Peek())) {
        exponent = std::min<int64_t>(exponent * 10 + (Peek() - '0'), int64_t{1} << 40);
        ++at_;
      }
      if (negative) exponent = -exponent;
      const int64_t scale = fraction_digits - exponent;
      if (exponent > INT32_MAX || exponent < INT32_MIN || scale > INT32_MAX || scale < INT32_MIN) {
        return Unreadable();
      }
    }
    token.text = std::string(text_.substr(start, at_ - start));
    return Ok{};
  }

  Status ReadQuoted(Token& token, char quote) {
    token.kind = quote == '\'' ? TokenKind::kString : TokenKind::kQuotedName;
    ++at_;
    while (true) {
      const size_t end = text_.find(quote, at_);
      if (end == std::string_view::npos) return Unreadable();
      token.text.append(text_.substr(at_, end - at_));
      at_ = end + 1;
      if (Peek() != quote) return Ok{};
      token.text.push_back(quote);  // a doubled quote stands for one
      ++at_;
    }
  }

  // Each token's line, column and length in characters (a UTF-8 continuation byte is no
  // character of its own), in one pass over the statement.
  void Place(std::vector<Token>& tokens) const {
    auto is_character = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
    uint32_t line = 1;
    uint32_t column = 1;
    size_t at = 0;
    for (Token& token : tokens) {
      for (; at < token.offset; ++at) {
        if (text_[at] == '\n') {
          ++line;
          column = 1;
        } else if (is_character(text_[at])) {
          ++column;
        }
      }
      token.line = line;
      token.column = column;
      const std::string_view written = text_.substr(token.offset, token.length);
      token.length =
          static_cast<uint32_t>(std::count_if(written.begin(), written.end(), is_character));
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view statement) { return Lexer(statement).Run(); }

std::string At(const Token& token) {
  return " at " + std::to_string(token.line) + ":" + std::to_string(token.column) + ":" +
         std::to_string(token.length);
}

}  // namespace ddbd::partiql
