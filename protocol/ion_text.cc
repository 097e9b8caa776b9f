#include "protocol/ion_text.h"

#include <cstdint>
#include <vector>

#include "protocol/json_writer.h"
#include "protocol/utf8.h"

namespace ddbd {
namespace {

struct IonField;

struct IonValue {
  enum class Kind { kString, kNumber, kBlob, kBool, kNull, kList, kStruct };
  Kind kind = Kind::kNull;
  std::string text;  // a string's, a number's (DynamoDB's form), a blob's base64
  bool boolean = false;
  std::string annotation;  // the last one: the one DynamoDB's sets carry
  std::vector<IonValue> items;
  std::vector<IonField> fields;  // a struct's (a vector of a type not yet complete: C++17's)
};

struct IonField {
  std::string name;
  IonValue value;
};

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool IsIdentifierPart(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  // The line's one value, after an optional version marker.
  bool ReadTop(IonValue& value) {
    SkipSpace();
    if (text_.substr(at_).starts_with("$ion_1_0")) {
      const size_t after = at_ + 8;
      if (after == text_.size() || !IsIdentifierPart(text_[after])) at_ = after;
    }
    if (!ReadValue(value, 0)) return false;
    SkipSpace();
    return at_ == text_.size();
  }

 private:
  bool ReadValue(IonValue& value, int depth) {
    if (depth > kIonDepthLimit) return false;
    SkipSpace();
    // Annotations: symbol:: before the value.
    while (true) {
      const size_t start = at_;
      std::string symbol;
      if (!ReadSymbol(symbol)) break;
      SkipSpace();
      if (text_.substr(at_).starts_with("::")) {
        at_ += 2;
        value.annotation = std::move(symbol);
        SkipSpace();
        continue;
      }
      at_ = start;
      break;
    }
    if (at_ >= text_.size()) return false;
    const char c = text_[at_];
    if (c == '{') {
      if (text_.substr(at_).starts_with("{{")) return ReadBlob(value);
      return ReadStruct(value, depth);
    }
    if (c == '[') return ReadList(value, depth);
    if (c == '"' || text_.substr(at_).starts_with("'''")) {
      value.kind = IonValue::Kind::kString;
      return ReadStringText(value.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber(value);
    if (IsIdentifierStart(c)) {
      std::string word;
      while (at_ < text_.size() && (IsIdentifierPart(text_[at_]) || text_[at_] == '.')) {
        word += text_[at_++];
      }
      if (word == "true" || word == "false") {
        value.kind = IonValue::Kind::kBool;
        value.boolean = word == "true";
        return true;
      }
      if (word == "null" || word.starts_with("null.")) {
        value.kind = IonValue::Kind::kNull;
        return true;
      }
    }
    return false;  // symbols, s-expressions, timestamps, clobs: no DynamoDB meaning
  }

  bool ReadStruct(IonValue& value, int depth) {
    value.kind = IonValue::Kind::kStruct;
    ++at_;
    while (true) {
      SkipSpace();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == '}') {
        ++at_;
        return true;
      }
      std::string name;
      if (text_[at_] == '"' || text_.substr(at_).starts_with("'''")) {
        if (!ReadStringText(name)) return false;
      } else if (!ReadSymbol(name)) {
        return false;
      }
      SkipSpace();
      if (at_ >= text_.size() || text_[at_] != ':') return false;
      ++at_;
      IonValue field;
      if (!ReadValue(field, depth + 1)) return false;
      value.fields.push_back({std::move(name), std::move(field)});
      SkipSpace();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
      } else if (at_ >= text_.size() || text_[at_] != '}') {
        return false;
      }
    }
  }

  bool ReadList(IonValue& value, int depth) {
    value.kind = IonValue::Kind::kList;
    ++at_;
    while (true) {
      SkipSpace();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == ']') {
        ++at_;
        return true;
      }
      IonValue item;
      if (!ReadValue(item, depth + 1)) return false;
      value.items.push_back(std::move(item));
      SkipSpace();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
      } else if (at_ >= text_.size() || text_[at_] != ']') {
        return false;
      }
    }
  }

  // {{ base64 }}, whitespace allowed inside; a clob ({{"..."}}) does not read.
  bool ReadBlob(IonValue& value) {
    value.kind = IonValue::Kind::kBlob;
    at_ += 2;
    while (at_ < text_.size()) {
      const char c = text_[at_++];
      if (c == '}') {
        if (at_ >= text_.size() || text_[at_] != '}') return false;
        ++at_;
        return true;
      }
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') continue;
      if (!IsIdentifierPart(c) && c != '+' && c != '/' && c != '=') return false;
      value.text += c;
    }
    return false;
  }

  // An Ion number as DynamoDB's N: decimals' d exponents as E, a trailing '.' dropped,
  // underscores between digits dropped; the N rules downstream judge the rest.
  bool ReadNumber(IonValue& value) {
    value.kind = IonValue::Kind::kNumber;
    std::string raw;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (!IsIdentifierPart(c) && c != '.' && c != '+' && c != '-') break;
      raw += c;
      ++at_;
    }
    const size_t digits = raw.starts_with('-') ? 1 : 0;
    if (raw.size() > digits + 1 && raw[digits] == '0' &&
        (raw[digits + 1] == 'x' || raw[digits + 1] == 'X' || raw[digits + 1] == 'b' ||
         raw[digits + 1] == 'B')) {
      return false;  // hex and binary integers: never in DynamoDB's exports
    }
    std::string& out = value.text;
    for (size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (c == '_') continue;
      if (c == 'd' || c == 'D' || c == 'e' || c == 'E') {
        if (!out.empty() && out.back() == '.') out.pop_back();
        c = 'E';
      }
      out += c;
    }
    if (!out.empty() && out.back() == '.') out.pop_back();
    return !out.empty() && out != "-";
  }

  // An identifier or a 'quoted symbol'.
  bool ReadSymbol(std::string& symbol) {
    if (at_ >= text_.size()) return false;
    if (text_[at_] == '\'' && !text_.substr(at_).starts_with("'''")) {
      ++at_;
      return ReadQuoted('\'', symbol);
    }
    if (!IsIdentifierStart(text_[at_])) return false;
    const size_t start = at_;
    while (at_ < text_.size() && IsIdentifierPart(text_[at_])) ++at_;
    symbol.assign(text_.substr(start, at_ - start));
    if (symbol == "true" || symbol == "false" || symbol == "null" || symbol == "nan") {
      at_ = start;
      return false;
    }
    return true;
  }

  // "..." or one or more '''...''' joined (whitespace and comments between).
  bool ReadStringText(std::string& out) {
    if (text_[at_] == '"') {
      ++at_;
      return ReadQuoted('"', out);
    }
    bool any = false;
    while (text_.substr(at_).starts_with("'''")) {
      at_ += 3;
      if (!ReadLong(out)) return false;
      any = true;
      const size_t before = at_;
      SkipSpace();
      if (!text_.substr(at_).starts_with("'''")) at_ = before;
    }
    return any;
  }

  bool ReadLong(std::string& out) {
    while (at_ < text_.size()) {
      if (text_.substr(at_).starts_with("'''")) {
        at_ += 3;
        return true;
      }
      if (!ReadCharacter(out)) return false;
    }
    return false;
  }

  bool ReadQuoted(char quote, std::string& out) {
    while (at_ < text_.size()) {
      if (text_[at_] == quote) {
        ++at_;
        return true;
      }
      if (text_[at_] == '\n' || text_[at_] == '\r') return false;
      if (!ReadCharacter(out)) return false;
    }
    return false;
  }

  // One character or escape of a string.
  bool ReadCharacter(std::string& out) {
    const char c = text_[at_++];
    if (c != '\\') {
      out += c;
      return true;
    }
    if (at_ >= text_.size()) return false;
    const char e = text_[at_++];
    switch (e) {
      case 'a':
        out += '\a';
        return true;
      case 'b':
        out += '\b';
        return true;
      case 't':
        out += '\t';
        return true;
      case 'n':
        out += '\n';
        return true;
      case 'f':
        out += '\f';
        return true;
      case 'r':
        out += '\r';
        return true;
      case 'v':
        out += '\v';
        return true;
      case '0':
        out += '\0';
        return true;
      case '?':
      case '\'':
      case '"':
      case '/':
      case '\\':
        out += e;
        return true;
      case '\n':
        return true;  // a line continued
      case 'x':
        return ReadHex(2, out);
      case 'u':
        return ReadHex(4, out);
      case 'U':
        return ReadHex(8, out);
      default:
        return false;
    }
  }

  bool ReadHex(size_t count, std::string& out) {
    if (at_ + count > text_.size()) return false;
    uint32_t code = 0;
    for (size_t i = 0; i < count; ++i) {
      const char h = text_[at_ + i];
      int digit = -1;
      if (h >= '0' && h <= '9') digit = h - '0';
      if (h >= 'a' && h <= 'f') digit = h - 'a' + 10;
      if (h >= 'A' && h <= 'F') digit = h - 'A' + 10;
      if (digit < 0) return false;
      code = code * 16 + static_cast<uint32_t>(digit);
    }
    at_ += count;
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    AppendUtf8(code, out);
    return true;
  }

  void SkipSpace() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        ++at_;
      } else if (text_.substr(at_).starts_with("//")) {
        const size_t end = text_.find('\n', at_);
        at_ = end == std::string_view::npos ? text_.size() : end + 1;
      } else if (text_.substr(at_).starts_with("/*")) {
        const size_t end = text_.find("*/", at_ + 2);
        at_ = end == std::string_view::npos ? text_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

// An attribute value, in DynamoDB JSON. False: no DynamoDB meaning (a set of the wrong members).
bool WriteAttribute(json::Writer& writer, const IonValue& value) {
  writer.StartObject();
  switch (value.kind) {
    case IonValue::Kind::kString:
      json::Key(writer, "\"S\"");
      json::String(writer, value.text);
      break;
    case IonValue::Kind::kNumber:
      json::Key(writer, "\"N\"");
      json::String(writer, value.text);
      break;
    case IonValue::Kind::kBlob:
      json::Key(writer, "\"B\"");
      json::String(writer, value.text);
      break;
    case IonValue::Kind::kBool:
      json::Key(writer, "\"BOOL\"");
      writer.Bool(value.boolean);
      break;
    case IonValue::Kind::kNull:
      json::Key(writer, "\"NULL\"");
      writer.Bool(true);
      break;
    case IonValue::Kind::kList: {
      IonValue::Kind member = IonValue::Kind::kNull;
      if (value.annotation == "$dynamodb_SS") {
        json::Key(writer, "\"SS\"");
        member = IonValue::Kind::kString;
      } else if (value.annotation == "$dynamodb_NS") {
        json::Key(writer, "\"NS\"");
        member = IonValue::Kind::kNumber;
      } else if (value.annotation == "$dynamodb_BS") {
        json::Key(writer, "\"BS\"");
        member = IonValue::Kind::kBlob;
      } else {
        json::Key(writer, "\"L\"");
      }
      writer.StartArray();
      for (const IonValue& item : value.items) {
        if (member == IonValue::Kind::kNull) {
          if (!WriteAttribute(writer, item)) return false;
        } else if (item.kind != member) {
          return false;
        } else {
          json::String(writer, item.text);
        }
      }
      writer.EndArray();
      break;
    }
    case IonValue::Kind::kStruct:
      json::Key(writer, "\"M\"");
      writer.StartObject();
      for (const IonField& field : value.fields) {
        json::String(writer, field.name);
        if (!WriteAttribute(writer, field.value)) return false;
      }
      writer.EndObject();
      break;
  }
  writer.EndObject();
  return true;
}

}  // namespace

std::optional<std::string> IonToDynamoDbJson(std::string_view text) {
  IonValue top;
  if (!Reader(text).ReadTop(top) || top.kind != IonValue::Kind::kStruct) return std::nullopt;
  json::Buffer buffer;
  json::Writer writer(buffer);
  writer.StartObject();
  // The line's fields (Item; an incremental export's Keys, NewImage, ...) are attribute maps.
  for (const IonField& field : top.fields) {
    json::String(writer, field.name);
    if (field.value.kind != IonValue::Kind::kStruct) {
      if (!WriteAttribute(writer, field.value)) return std::nullopt;
      continue;
    }
    writer.StartObject();
    for (const IonField& attribute : field.value.fields) {
      json::String(writer, attribute.name);
      if (!WriteAttribute(writer, attribute.value)) return std::nullopt;
    }
    writer.EndObject();
  }
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ddbd
