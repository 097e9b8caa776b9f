#include "protocol/partiql/cursor.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/model/number.h"
#include "protocol/ascii.h"
#include "protocol/partiql/keywords.h"
#include "protocol/partiql/messages.h"

namespace ddbd::partiql {
namespace {

constexpr int kMaxNestingLevels = 32;

Error PathNestingTooDeep() { return Error::Validation(std::string(kNestingTooDeep)); }

bool IsOperatorSymbol(std::string_view symbol) {
  static constexpr std::string_view kOperators[] = {"=",  "<>", "!=", "<", "<=", ">",
                                                    ">=", "+",  "-",  "*", "||"};
  return std::find(std::begin(kOperators), std::end(kOperators), symbol) != std::end(kOperators);
}

}  // namespace

Cursor::Cursor(std::vector<Token> tokens, const std::vector<AttributeValue>& parameters)
    : tokens_(std::move(tokens)), parameters_(parameters) {}

const Token& Cursor::Peek(size_t ahead) const {
  return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
}

const Token& Cursor::Next() {
  const Token& token = tokens_[at_];
  if (at_ + 1 < tokens_.size()) ++at_;
  return token;
}

bool Cursor::PeekSymbol(std::string_view symbol, size_t ahead) const {
  const Token& token = Peek(ahead);
  return token.kind == TokenKind::kSymbol && token.text == symbol;
}

bool Cursor::AcceptSymbol(std::string_view symbol) {
  if (!PeekSymbol(symbol)) return false;
  Next();
  return true;
}

bool Cursor::PeekKeyword(std::string_view word) const {
  const Token& token = Peek();
  return token.kind == TokenKind::kName && EqualsIgnoringCase(token.text, word);
}

bool Cursor::AcceptKeyword(std::string_view word) {
  if (!PeekKeyword(word)) return false;
  Next();
  return true;
}

bool Cursor::AtClauseEnd() const {
  return Peek().kind == TokenKind::kEnd || PeekSymbol(";") || PeekSymbol(")");
}

bool Cursor::PeekName() const {
  const Token& token = Peek();
  return token.kind == TokenKind::kQuotedName ||
         (token.kind == TokenKind::kName && !IsReservedWord(token.text));
}

std::string Cursor::PeekFunction() const {
  if (Peek().kind != TokenKind::kName || !PeekSymbol("(", 1)) return "";
  return AsciiUpper(Peek().text);
}

Error Cursor::Malformed(std::string_view detail) {
  return Error::Validation(NotWellFormed(detail));
}

Error Cursor::Unexpected() const {
  const Token& token = Peek();
  if (token.kind == TokenKind::kName && IsReservedWord(token.text)) {
    const std::string upper = AsciiUpper(token.text);
    const bool is_operator = upper == "IS" || upper == "LIKE" || upper == "AND" || upper == "OR" ||
                             upper == "IN" || upper == "BETWEEN";
    return Malformed(is_operator ? kUnexpectedOperator : kUnexpectedKeyword);
  }
  if (token.kind == TokenKind::kSymbol && IsOperatorSymbol(token.text)) {
    return Malformed(kUnexpectedOperator);
  }
  return Malformed(kUnexpectedTerm);
}

Result<std::string> Cursor::ParseName() {
  const Token& token = Peek();
  if (token.kind == TokenKind::kQuotedName) {
    if (token.text.empty()) return Error::Validation("Path component cannot be an empty string");
    return Next().text;
  }
  if (token.kind == TokenKind::kName && !IsReservedWord(token.text)) return Next().text;
  return Unexpected();
}

Result<DocumentPath> Cursor::ParsePath() {
  if (PeekSymbol("[")) return Error::Validation(std::string(kPathStartsWithIndex));
  auto first = ParseName();
  if (!first.ok()) return first.error();
  DocumentPath path;
  path.push_back({std::move(first).value(), -1});
  while (true) {
    // Items nest at most 32 levels: a longer path could name nothing, and projections and
    // updates walk paths recursively. UNCONFIRMED text: DynamoDB's for PartiQL is not known.
    if (path.size() > kMaxNestingLevels) {
      return Error::Validation("The document path has too many nesting levels; nesting levels: " +
                               std::to_string(path.size()));
    }
    if (AcceptSymbol(".")) {
      const Token& token = Peek();
      // After a dot any word names a map key, keywords included.
      if (token.kind != TokenKind::kName && token.kind != TokenKind::kQuotedName) {
        return Malformed(kUnexpectedTerm);
      }
      if (token.text.empty()) return Error::Validation("Path component cannot be an empty string");
      path.push_back({Next().text, -1});
    } else if (AcceptSymbol("[")) {
      const Token& token = Next();
      if (token.kind == TokenKind::kString) {
        path.push_back({token.text, -1});
      } else if (token.kind == TokenKind::kNumber &&
                 std::all_of(token.text.begin(), token.text.end(), ::isdigit)) {
        if (token.text.size() > 9) {
          return Error::Validation("List index is not within the allowable range; index: [" +
                                   token.text + "]");
        }
        path.push_back({"", std::stoll(token.text)});
      } else {
        return Malformed(kUnexpectedTerm);
      }
      if (!AcceptSymbol("]")) return Malformed(kUnexpectedToken);
    } else {
      return path;
    }
  }
}

// Lists, maps and bags recurse (at most 32 levels, in these small frames); every other literal
// is read by ParseScalar.
Result<AttributeValue> Cursor::ParseValue(const std::string& path, int depth) {
  const bool map = PeekSymbol("{");
  const bool list = PeekSymbol("[");
  if (!map && !list && !PeekSymbol("<<")) return ParseScalar(path);
  if (depth + 1 > kMaxNestingLevels) return PathNestingTooDeep();
  if (map) return ParseMap(path, depth + 1, false);
  if (list) return ParseList(path, depth + 1);
  return ParseBag(path, depth + 1);
}

Result<AttributeValue> Cursor::ParseScalar(const std::string& path) {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kParameter:
      Next();
      return TakeParameter();
    case TokenKind::kString:
      return AttributeValue::String(Next().text);
    case TokenKind::kNumber:
      return ParseNumber(false, path);
    case TokenKind::kName: {
      const std::string upper = AsciiUpper(token.text);
      if (upper == "TRUE" || upper == "FALSE") {
        Next();
        return AttributeValue::Boolean(upper == "TRUE");
      }
      if (upper == "NULL") {
        Next();
        return AttributeValue::Null();
      }
      if (upper == "MISSING") return Error::Validation(std::string(kMissingNeedsIs));
      // A function call where a value is written (recorded against AWS: behaviours-to-match D3).
      if (PeekSymbol("(", 1)) {
        return Error::Validation("Unsupported data type: " + AsciiLower(token.text) +
                                 " under key " + path + At(token));
      }
      return Unexpected();
    }
    case TokenKind::kSymbol:
      if ((token.text == "-" || token.text == "+") && Peek(1).kind == TokenKind::kNumber) {
        const bool negative = Next().text == "-";
        return ParseNumber(negative, path);
      }
      return Unexpected();
    default:
      return Unexpected();
  }
}

Result<Item> Cursor::ParseItem() {
  if (Peek().kind == TokenKind::kParameter) {
    Next();
    AttributeValue value = TakeParameter();
    if (value.type != AttributeType::kM) return Error::Validation(std::string(kInsertItemSyntax));
    return std::move(value.map);
  }
  if (!PeekSymbol("{")) return Error::Validation(std::string(kInsertItemSyntax));
  auto map = ParseMap("root", 0, true);
  if (!map.ok()) return map.error();
  return std::move(map.value().map);
}

Status Cursor::CheckParameterCount() const {
  if (parameters_used_ != parameters_.size()) {
    return Error::Validation(std::string(kParameterCount));
  }
  return Ok{};
}

Result<AttributeValue> Cursor::ParseNumber(bool negative, const std::string& path) {
  const std::string text = (negative ? "-" : "") + Next().text;
  auto number = Number::Parse(text);
  if (!number.ok()) return Error::Validation(number.error().message() + " under " + path);
  return AttributeValue::Number(number.value().ToString());
}

// { 'name': value, ... }: an INSERT's item (`item`), whose members are each a "root" in
// messages, or a map value, whose members are "<path>.name".
Result<AttributeValue> Cursor::ParseMap(const std::string& path, int depth, bool item) {
  Next();  // {
  AttributeValue map;
  map.type = AttributeType::kM;
  if (AcceptSymbol("}")) return map;
  do {
    const Token& key = Peek();
    if (key.kind != TokenKind::kString) return Unexpected();
    std::string name = Next().text;
    if (!AcceptSymbol(":")) return Malformed(kUnexpectedToken);
    auto value = ParseValue(item ? "root" : path + "." + name, depth);
    if (!value.ok()) return value;
    if (FindAttribute(map.map, name) != nullptr) {
      return Error::Validation(DuplicateTupleKey(name, path));
    }
    map.map.emplace_back(std::move(name), std::move(value).value());
  } while (AcceptSymbol(","));
  if (!AcceptSymbol("}")) return Malformed(kUnexpectedToken);
  return map;
}

Result<AttributeValue> Cursor::ParseList(const std::string& path, int depth) {
  Next();  // [
  AttributeValue list;
  list.type = AttributeType::kL;
  if (AcceptSymbol("]")) return list;
  do {
    auto value = ParseValue(path + "[" + std::to_string(list.list.size()) + "]", depth);
    if (!value.ok()) return value;
    list.list.push_back(std::move(value).value());
  } while (AcceptSymbol(","));
  if (!AcceptSymbol("]")) return Malformed(kUnexpectedToken);
  return list;
}

// << v, ... >>: a string, number or binary set, by its members' type.
Result<AttributeValue> Cursor::ParseBag(const std::string& path, int depth) {
  Next();  // <<
  if (AcceptSymbol(">>")) return Error::Validation(std::string(kEmptyBag));
  AttributeValue set;
  do {
    auto value = ParseValue(path, depth);
    if (!value.ok()) return value;
    const AttributeType type = value.value().type;
    const AttributeType set_type = type == AttributeType::kS   ? AttributeType::kSS
                                   : type == AttributeType::kN ? AttributeType::kNS
                                   : type == AttributeType::kB ? AttributeType::kBS
                                                               : AttributeType::kNull;
    if (set_type == AttributeType::kNull || (!set.members.empty() && set.type != set_type)) {
      return Error::Validation(std::string(kBagType));
    }
    set.type = set_type;
    set.members.push_back(std::move(value.value().scalar));
  } while (AcceptSymbol(","));
  if (!AcceptSymbol(">>")) return Malformed(kUnexpectedToken);
  std::vector<std::string> sorted = set.members;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    if (!bag_in_set_function_) return Error::Validation("Input collection contains duplicates");
    // The members as written, in order (recorded against AWS for strings:
    // behaviours-to-match D3).
    std::string members;
    for (const std::string& member : set.members) {
      members += (members.empty() ? "" : ", ") + member;
    }
    return Error::Validation("One or more parameter values were invalid: Input collection [" +
                             members + "] contains duplicates.");
  }
  SortSetMembers(set);  // kept in DynamoDB's order, as every set is
  return set;
}

AttributeValue Cursor::TakeParameter() {
  const size_t index = parameters_used_++;
  return index < parameters_.size() ? parameters_[index] : AttributeValue::Null();
}

}  // namespace ddbd::partiql
