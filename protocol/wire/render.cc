#include "protocol/wire/render.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <string>
#include <vector>

#include "protocol/validation_messages.h"

namespace ddbd::wire {
namespace {

constexpr size_t kMaxQuotedDepth = 64;

}  // namespace

std::string_view PatternText(Pattern pattern) {
  switch (pattern) {
    case Pattern::kNone:
      return "";
    case Pattern::kName:
      return kTableNamePattern;
    case Pattern::kClientToken:
      return "^[^\\$]+$";
    case Pattern::kCsvDelimiter:
      return "[,;:|\\t ]";
    case Pattern::kCsvHeader:
      return "[\\x20-\\x21\\x23-\\x2B\\x2D-\\x7E]*";
    case Pattern::kImportNextToken:
      return "([0-9a-f]{16})+";
    case Pattern::kS3Bucket:
      return "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$";
    case Pattern::kS3BucketOwner:
      return "[0-9]{12}";
    case Pattern::kXmlText:
      return "[\\u0020-\\uD7FF\\uE000-\\uFFFD\\uD800\\uDC00-\\uDBFF\\uDFFF\\r\\n\\t]*";
    case Pattern::kPrint:
      return "\\p{Print}+";
  }
  return "";
}

// Writes `value` as compact JSON, its nesting cut at kMaxQuotedDepth ("..." stands for a deeper
// value): a quoted value is rendered by recursion, and a request may nest far deeper than a
// thread's stack allows (RapidJSON's own Accept recurses without bound).
namespace {

void WriteBounded(rapidjson::Writer<rapidjson::StringBuffer>& writer, const json::Value& value,
                  size_t depth) {
  if (depth > kMaxQuotedDepth && (value.IsObject() || value.IsArray())) {
    writer.String("...");
    return;
  }
  if (value.IsObject()) {
    writer.StartObject();
    for (const auto& entry : value.GetObject()) {
      writer.Key(entry.name.GetString(), entry.name.GetStringLength());
      WriteBounded(writer, entry.value, depth + 1);
    }
    writer.EndObject();
  } else if (value.IsArray()) {
    writer.StartArray();
    for (const json::Value& element : value.GetArray()) WriteBounded(writer, element, depth + 1);
    writer.EndArray();
  } else {
    value.Accept(writer);  // a scalar: no recursion
  }
}

}  // namespace

std::string CompactJson(const json::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  WriteBounded(writer, value, 0);
  return {buffer.GetString(), buffer.GetSize()};
}

namespace {

std::string JavaStructureText(const Shape& shape, const json::Value& value, size_t depth) {
  std::string_view type = shape.java_type.substr(shape.java_type.rfind('.') + 1);
  std::string text = std::string(type) + "(";
  bool first = true;
  for (const Member& member : shape.members) {
    if (!first) text += ", ";
    first = false;
    text += member.path;
    text += "=";
    const json::Value* found = json::Member(value, member.name);
    text += found == nullptr ? "null" : JavaText(*member.shape, *found, depth + 1);
  }
  return text + ")";
}

}  // namespace

std::string JavaText(const Shape& shape, const json::Value& value, size_t depth) {
  if (depth > kMaxQuotedDepth) return "...";
  if (shape.kind == Kind::kStructure && value.IsObject()) {
    return JavaStructureText(shape, value, depth);
  }
  if (shape.kind == Kind::kList && value.IsArray()) {
    std::vector<std::string> items;
    for (const json::Value& element : value.GetArray()) {
      items.push_back(JavaText(*shape.element, element, depth + 1));
    }
    return JavaList(items);
  }
  if (value.IsString()) return std::string(json::Text(value));
  if (value.IsNull()) return "null";
  return CompactJson(value);
}

// Every constraint of `shape` as coral lists a member's, key's or value's set: "[Member must have
// length less than or equal to 255, Member must have length greater than or equal to 3, Member
// must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]".
std::string ConstraintSet(const Shape& model_shape) {
  const Shape& shape = model_shape.plain_name != nullptr ? *model_shape.plain_name : model_shape;
  const bool numeric = shape.kind == Kind::kInteger || shape.kind == Kind::kLong;
  const std::string measure = numeric ? "value" : "length";
  std::vector<std::string> constraints;
  if (shape.max != kUnbounded) {
    constraints.push_back("Member must have " + measure + " less than or equal to " +
                          std::to_string(shape.max));
  }
  if (shape.min != kUnbounded) {
    constraints.push_back("Member must have " + measure + " greater than or equal to " +
                          std::to_string(shape.min));
  }
  if (shape.pattern != Pattern::kNone) {
    constraints.push_back("Member must satisfy regular expression pattern: " +
                          std::string(PatternText(shape.pattern)));
  }
  if (!shape.enum_values.empty()) {
    std::vector<std::string> values(shape.enum_values.begin(), shape.enum_values.end());
    constraints.push_back("Member must satisfy enum value set: " + JavaList(values));
  }
  return JavaList(constraints);
}

// A list or map quoted whole, as coral quotes them (a 65,536-byte name in AttributesToGet comes
// back entire), up to a bound no request near DynamoDB's size limit reaches with one name: a
// message never grows without limit with the request.
constexpr size_t kMaxQuotedCollectionBytes = 4 * kMaxQuotedValueBytes;
std::string QuotedCollection(const std::string& text) {
  if (text.size() <= kMaxQuotedCollectionBytes) return "'" + text + "'";
  size_t end = kMaxQuotedCollectionBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return "'" + text.substr(0, end) + "...'";
}

// Java's toString of a map: {key=value, ...}.
std::string JavaMapText(const Shape& value_shape, const json::Value& map) {
  std::string text = "{";
  for (const auto& entry : map.GetObject()) {
    if (text.size() > 1) text += ", ";
    text += json::Text(entry.name);
    text += "=";
    text += JavaText(value_shape, entry.value, 1);
  }
  return text + "}";
}

}  // namespace ddbd::wire
