#include "protocol/wire/reader.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "protocol/validation_messages.h"
#include "protocol/wire/render.h"

namespace ddbd::wire {
namespace {

// The walk follows the shapes, never the body: the model's input shapes nest at most 16 deep
// and none refers back to itself (scripts/generate-wire checks both; attribute values, which do,
// are the attribute decoder's, with its own bound). This is a guard, not a limit ever reached.
constexpr size_t kMaxDepth = 24;

constexpr const char* kStructureNotExpected = "Start of structure or map found where not expected";

// Java's String.length(): UTF-16 code units, as coral measures a string (a four-byte UTF-8
// sequence is two).
size_t JavaLength(std::string_view text) {
  size_t length = 0;
  for (char byte : text) {
    const auto c = static_cast<unsigned char>(byte);
    if ((c & 0xC0) != 0x80) ++length;
    if (c >= 0xF0) ++length;
  }
  return length;
}

bool MatchesName(std::string_view text) {  // [a-zA-Z0-9_.-]+
  return IsValidTableNameCharacters(text);
}

bool IsAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool Matches(Pattern pattern, std::string_view text) {
  switch (pattern) {
    case Pattern::kNone:
      return true;
    case Pattern::kName:
      return MatchesName(text);
    case Pattern::kClientToken:
      return !text.empty() && text.find('$') == std::string_view::npos;
    case Pattern::kCsvDelimiter:
      return text.size() == 1 &&
             std::string_view(",;:|\t ").find(text[0]) != std::string_view::npos;
    case Pattern::kCsvHeader:
      return std::all_of(text.begin(), text.end(),
                         [](char c) { return c >= 0x20 && c <= 0x7E && c != '"' && c != ','; });
    case Pattern::kImportNextToken:
      return !text.empty() && text.size() % 16 == 0 &&
             std::all_of(text.begin(), text.end(),
                         [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
    case Pattern::kS3Bucket:
      // Alphanumeric at both ends (two characters at least), [.\-\w] between.
      return text.size() >= 2 && IsAlphanumeric(text.front()) && IsAlphanumeric(text.back()) &&
             std::all_of(text.begin(), text.end(), [](char c) {
               return IsAlphanumeric(c) || c == '.' || c == '-' || c == '_';
             });
    case Pattern::kS3BucketOwner:
      return text.size() == 12 &&
             std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    case Pattern::kXmlText:
      // XML's characters: no control character but tab, line feed and carriage return, and
      // neither U+FFFE nor U+FFFF (EF BF BE, EF BF BF in the UTF-8 the reader has checked).
      return std::all_of(text.begin(), text.end(),
                         [](char c) {
                           const auto byte = static_cast<unsigned char>(c);
                           return byte >= 0x20 || c == '\t' || c == '\n' || c == '\r';
                         }) &&
             text.find("\xEF\xBF\xBE") == std::string_view::npos &&
             text.find("\xEF\xBF\xBF") == std::string_view::npos;
    case Pattern::kPrint:
      return !text.empty() &&
             std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
  }
  return true;
}

// The shape a string is held to: a table name's for a TableArn that is not an ARN.
const Shape& Governing(const Shape& shape, std::string_view text) {
  return shape.plain_name != nullptr && !text.empty() && !text.starts_with("arn:")
             ? *shape.plain_name
             : shape;
}

bool InLengthBounds(const Shape& shape, size_t length) {
  return (shape.min == kUnbounded || length >= static_cast<size_t>(shape.min)) &&
         (shape.max == kUnbounded || length <= static_cast<size_t>(shape.max));
}

bool IsEnumValue(const Shape& shape, std::string_view text) {
  return shape.enum_values.empty() || std::find(shape.enum_values.begin(), shape.enum_values.end(),
                                                text) != shape.enum_values.end();
}

// Whether a value of the right JSON type meets its shape's own constraints: how a list's members
// and a map's keys and values are checked, as one.
bool Meets(const Shape& model_shape, const json::Value& value) {
  switch (model_shape.kind) {
    case Kind::kString: {
      const std::string_view text = json::Text(value);
      const Shape& shape = Governing(model_shape, text);
      if (shape.min == kUnbounded && shape.max == kUnbounded && shape.pattern == Pattern::kNone &&
          shape.enum_values.empty()) {
        return true;
      }
      return InLengthBounds(shape, JavaLength(text)) && Matches(shape.pattern, text) &&
             IsEnumValue(shape, text);
    }
    case Kind::kInteger:
    case Kind::kLong: {
      const int64_t number = *Number(&value);
      return (model_shape.min == kUnbounded || number >= model_shape.min) &&
             (model_shape.max == kUnbounded || number <= model_shape.max);
    }
    case Kind::kList:
      return InLengthBounds(model_shape, value.Size());
    case Kind::kMap:
      return InLengthBounds(model_shape, value.MemberCount());
    default:
      return true;
  }
}

// One step of the path from the body to a value: how a message names it and where its failures
// sort among the others.
struct Step {
  enum class Kind : uint8_t { kMember, kIndex, kKey } kind;
  const Member* member;  // kMember
  std::string_view key;  // kKey
  uint32_t order;        // a member's report rank, or an entry's position as sent
};

struct Failure {
  std::vector<uint32_t> order;
  std::string rendered_value;  // as ConstraintErrors::Add takes it
  std::string path;
  std::string constraint;
  bool whole = false;  // `constraint` is the failure's whole text (ConstraintErrors::AddWhole)
};

class Walk {
 public:
  // Each returns false once a value of the wrong type has stopped the read.
  bool Structure(const Shape& shape, const json::Value& object, const json::Value** values);
  bool Value(const Shape& shape, const json::Value& value, bool element);

  Status Result() {
    if (serialization_) return *serialization_;
    if (!missing_parameter_.empty()) return RequiredParameterMissing(missing_parameter_);
    if (failures_.empty()) return Ok{};
    std::stable_sort(failures_.begin(), failures_.end(),
                     [](const Failure& a, const Failure& b) { return a.order < b.order; });
    ConstraintErrors errors;
    for (const Failure& failure : failures_) {
      if (failure.whole) {
        errors.AddWhole(failure.constraint);
      } else {
        errors.Add(failure.rendered_value, failure.path, failure.constraint);
      }
    }
    return errors.ToStatus();
  }

 private:
  bool Serialization(std::string text) {
    serialization_ = Error::Serialization(std::move(text));
    return false;
  }
  bool CannotConvert(const json::Value& value, std::string_view java_type) {
    return Serialization(std::string(json::TokenName(value)) + " cannot be converted to " +
                         std::string(java_type.substr(java_type.rfind('.') + 1)));
  }
  bool UnrecognizedCollection(const Shape& shape) {
    const bool generic = shape.java_type.find('<') != std::string_view::npos;
    return Serialization(
        (generic ? "Unrecognized collection type " : "Unrecognized collection type class ") +
        std::string(shape.java_type));
  }

  // `bounds`: a length or value-range failure, which some members word in the newer style
  // (Member::bare_bounds).
  void Fail(std::string rendered_value, std::string constraint, bool bounds = false);
  // The innermost member being read, or null.
  const Member* InnermostMember() const {
    for (size_t i = depth_; i > 0; --i) {
      if (steps_[i - 1].kind == Step::Kind::kMember) return steps_[i - 1].member;
    }
    return nullptr;
  }
  void Step(const Member& member) {
    steps_[depth_++] = {Step::Kind::kMember, &member, {}, member.report_rank};
  }
  void Step(Step::Kind kind, std::string_view key, uint32_t order) {
    steps_[depth_++] = {kind, nullptr, key, order};
  }
  void Back() { --depth_; }

  // `element`: a list's member or a map's value, whose constraints its container checks as one.
  bool Scalar(const Shape& shape, const json::Value& value, bool element);
  bool List(const Shape& shape, const json::Value& list, bool element);
  bool Map(const Shape& shape, const json::Value& map, bool element);
  void CheckString(const Shape& shape, std::string_view text);
  void CheckNumber(const Shape& shape, int64_t value);
  void CheckLength(const Shape& shape, size_t length, const std::string& rendered);
  void CheckMapKeys(const Shape& shape, const json::Value& map);

  std::optional<Error> serialization_;
  std::string_view missing_parameter_;  // a Member::parameter_required one
  std::vector<Failure> failures_;
  std::array<struct Step, kMaxDepth + 1> steps_;  // [0, depth_) in use
  size_t depth_ = 0;
};

void Walk::Fail(std::string rendered_value, std::string constraint, bool bounds) {
  const struct Step* innermost = nullptr;
  for (size_t i = 0; i < depth_; ++i) {
    if (steps_[i].kind == Step::Kind::kMember) innermost = &steps_[i];
  }
  const bool bare = bounds && innermost != nullptr && innermost->member->bare_bounds;
  Failure failure{{}, bare ? std::string() : std::move(rendered_value), {}, std::move(constraint)};
  for (size_t i = 0; i < depth_; ++i) {
    const struct Step& step = steps_[i];
    failure.order.push_back(step.order);
    if (i > 0) failure.path += '.';
    switch (step.kind) {
      case Step::Kind::kMember:
        failure.path += bare ? step.member->name : step.member->path;
        break;
      case Step::Kind::kIndex:
        failure.path += std::to_string(step.order + 1) + ".member";
        break;
      case Step::Kind::kKey:
        failure.path += std::string(step.key) + ".member";
        break;
    }
  }
  failures_.push_back(std::move(failure));
}

bool Walk::Structure(const Shape& shape, const json::Value& object, const json::Value** values) {
  uint64_t seen = 0;  // the model's structures have at most 64 members (scripts/generate-wire)
  for (const auto& entry : object.GetObject()) {
    if (entry.value.IsNull()) continue;  // null is absent, as coral reads it
    const std::string_view name = json::Text(entry.name);
    for (size_t i = 0; i < shape.members.size(); ++i) {
      const Member& member = shape.members[i];
      if (member.name != name) continue;
      if ((seen >> i) & 1) break;  // the first of a repeated member counts, as json::Member reads
      seen |= uint64_t{1} << i;
      if (values != nullptr) values[i] = &entry.value;
      Step(member);
      const bool read = Value(*member.shape, entry.value, false);
      Back();
      if (!read) return false;
      break;
    }
  }
  for (size_t i = 0; i < shape.members.size(); ++i) {
    const Member& member = shape.members[i];
    if (!member.required || ((seen >> i) & 1)) continue;
    if (member.excused_by >= 0 && ((seen >> member.excused_by) & 1)) continue;
    if (member.parameter_required && missing_parameter_.empty()) missing_parameter_ = member.name;
    Step(member);
    Fail("null", "Member must not be null");
    Back();
  }
  return true;
}

bool Walk::Value(const Shape& shape, const json::Value& value, bool element) {
  if (depth_ >= kMaxDepth) return true;
  switch (shape.kind) {
    case Kind::kAttributeValue:
      return true;
    case Kind::kStructure:
      if (value.IsObject()) return Structure(shape, value, nullptr);
      if (value.IsArray()) return UnrecognizedCollection(shape);
      return Serialization(element ? "Unexpected value type in payload" : "Unexpected field type");
    case Kind::kList:
      if (value.IsArray()) return List(shape, value, element);
      if (value.IsObject()) return Serialization(kStructureNotExpected);
      return Serialization("Unexpected field type");
    case Kind::kMap:
      if (value.IsObject()) return Map(shape, value, element);
      if (value.IsArray()) return UnrecognizedCollection(shape);
      return Serialization("Unexpected field type");
    default:
      return Scalar(shape, value, element);
  }
}

bool Walk::Scalar(const Shape& shape, const json::Value& value, bool element) {
  if (value.IsObject() && shape.kind != Kind::kTimestamp) {
    return Serialization(kStructureNotExpected);
  }
  switch (shape.kind) {
    case Kind::kString:
      if (value.IsArray()) return UnrecognizedCollection(shape);
      if (!value.IsString()) return CannotConvert(value, shape.java_type);
      if (!element) CheckString(shape, json::Text(value));
      return true;
    case Kind::kBlob:
      if (value.IsArray()) return Serialization(kStructureNotExpected);
      if (!value.IsString()) {
        return Serialization("only base-64-encoded strings are convertible to bytes");
      }
      return true;
    case Kind::kInteger:
    case Kind::kLong:
    case Kind::kDouble:
      if (value.IsArray()) return UnrecognizedCollection(shape);
      if (!value.IsNumber()) return CannotConvert(value, shape.java_type);
      if (!element && shape.kind != Kind::kDouble) CheckNumber(shape, *Number(&value));
      return true;
    case Kind::kBoolean:
      if (value.IsBool()) return true;
      if (value.IsArray()) return UnrecognizedCollection(shape);
      if (value.IsString()) return Serialization("Unexpected token received from parser");
      return CannotConvert(value, shape.java_type);
    case Kind::kTimestamp:
      // Beyond year 300000 either way is not a moment anyone means.
      if (!value.IsNumber() || std::fabs(value.GetDouble()) > 1e13) {
        return Serialization("Unexpected token received from parser");
      }
      return true;
    default:
      return true;
  }
}

bool Walk::List(const Shape& shape, const json::Value& list, bool element_position) {
  const auto elements = list.GetArray();
  const Shape& element = *shape.element;
  if (element.kind != Kind::kAttributeValue) {
    bool all_meet = true;
    for (rapidjson::SizeType i = 0; i < elements.Size(); ++i) {
      if (elements[i].IsNull()) continue;
      Step(Step::Kind::kIndex, {}, i);
      const bool read = Value(element, elements[i], true);
      Back();
      if (!read) return false;
      if (element.kind != Kind::kStructure) all_meet = all_meet && Meets(element, elements[i]);
    }
    // A list's members other than structures are checked as one: coral names the list, quotes it
    // whole and lists every constraint of its members (AttributesToGet, NonKeyAttributes).
    if (!all_meet) {
      Fail(QuotedCollection(JavaText(shape, list, 0)),
           "Member must satisfy constraint: " + ConstraintSet(element));
    }
  }
  // A map's list value has its length checked by the map, with the others (Map below).
  if (!element_position && (shape.min != kUnbounded || shape.max != kUnbounded)) {
    const size_t length = elements.Size();
    if ((shape.min != kUnbounded && length < static_cast<size_t>(shape.min)) ||
        (shape.max != kUnbounded && length > static_cast<size_t>(shape.max))) {
      CheckLength(shape, length, QuotedCollection(JavaText(shape, list, 0)));
    }
  }
  return true;
}

bool Walk::Map(const Shape& shape, const json::Value& map, bool element_position) {
  // A map of attribute values is the attribute decoder's, keys and all (its names have their
  // own rules and texts).
  const Shape& value_shape = *shape.element;
  if (value_shape.kind == Kind::kAttributeValue) {
    if (!element_position) CheckLength(shape, map.MemberCount(), "");
    return true;
  }
  CheckMapKeys(shape, map);
  // A map's scalar or list values are checked as one, as a list's members are; its structures
  // are walked, each named by its key.
  const bool values_as_one = value_shape.kind != Kind::kStructure;
  bool all_meet = true;
  uint32_t position = 0;
  for (const auto& entry : map.GetObject()) {
    if (!entry.value.IsNull()) {
      Step(Step::Kind::kKey, json::Text(entry.name), position);
      const bool read = Value(value_shape, entry.value, true);
      Back();
      if (!read) return false;
      if (values_as_one) all_meet = all_meet && Meets(value_shape, entry.value);
    }
    ++position;
  }
  if (!all_meet) {
    const Member* member = InnermostMember();
    if (member != nullptr && member->attribute_name_values) {
      Failure failure;
      for (size_t i = 0; i < depth_; ++i) failure.order.push_back(steps_[i].order);
      failure.constraint = "Attribute name is too large, must be less than 65536 bytes";
      failure.whole = true;
      failures_.push_back(std::move(failure));
    } else {
      Fail(QuotedCollection(JavaMapText(value_shape, map)),
           "Map value must satisfy constraint: " + ConstraintSet(value_shape));
    }
  }
  if (!element_position) CheckLength(shape, map.MemberCount(), "");  // else its container's
  return true;
}

void Walk::CheckLength(const Shape& shape, size_t length, const std::string& rendered) {
  if (shape.min != kUnbounded && length < static_cast<size_t>(shape.min)) {
    Fail(rendered, "Member must have length greater than or equal to " + std::to_string(shape.min),
         true);
  }
  if (shape.max != kUnbounded && length > static_cast<size_t>(shape.max)) {
    Fail(rendered, "Member must have length less than or equal to " + std::to_string(shape.max),
         true);
  }
}

void Walk::CheckString(const Shape& model_shape, std::string_view text) {
  // A table ARN or name: a name is held to a table name's rules.
  const Shape& shape = Governing(model_shape, text);
  if (shape.pattern != Pattern::kNone && !Matches(shape.pattern, text)) {
    Fail(Quoted(text), "Member must satisfy regular expression pattern: " +
                           std::string(PatternText(shape.pattern)));
  }
  if (shape.min != kUnbounded || shape.max != kUnbounded) {
    // Bytes bound Java's length from above: most strings are measured without a second look.
    const bool long_enough = shape.min == kUnbounded || text.size() >= 4 * size_t(shape.min);
    const bool short_enough = shape.max == kUnbounded || text.size() <= size_t(shape.max);
    if (!long_enough || !short_enough) {
      const size_t length = JavaLength(text);
      if (shape.min != kUnbounded && length < static_cast<size_t>(shape.min)) {
        Fail(Quoted(text),
             "Member must have length greater than or equal to " + std::to_string(shape.min), true);
      }
      if (shape.max != kUnbounded && length > static_cast<size_t>(shape.max)) {
        Fail(Quoted(text),
             "Member must have length less than or equal to " + std::to_string(shape.max), true);
      }
    }
  }
  if (!shape.enum_values.empty() && std::find(shape.enum_values.begin(), shape.enum_values.end(),
                                              text) == shape.enum_values.end()) {
    std::string constraint = "Member must satisfy enum value set: [";
    for (size_t i = 0; i < shape.enum_values.size(); ++i) {
      if (i > 0) constraint += ", ";
      constraint += shape.enum_values[i];
    }
    Fail(Quoted(text), constraint + "]");
  }
}

void Walk::CheckNumber(const Shape& shape, int64_t value) {
  if (shape.min != kUnbounded && value < shape.min) {
    Fail("'" + std::to_string(value) + "'",
         "Member must have value greater than or equal to " + std::to_string(shape.min), true);
  }
  if (shape.max != kUnbounded && value > shape.max) {
    Fail("'" + std::to_string(value) + "'",
         "Member must have value less than or equal to " + std::to_string(shape.max), true);
  }
}

// One failure for the map however many keys break its key shape, listing every constraint of it
// (recorded: BatchGetItem's RequestItems with the key 'a!b', quoted as JSON). A map longer than a
// quoted value may be is not quoted at all ("Value at 'attributeUpdates'" for a 65,536-byte key:
// inferred from the two, which is all that is recorded).
void Walk::CheckMapKeys(const Shape& shape, const json::Value& map) {
  for (const auto& entry : map.GetObject()) {
    if (Meets(*shape.key, entry.name)) continue;
    std::string rendered = CompactJson(map);
    rendered = rendered.size() > kMaxQuotedValueBytes ? "" : "'" + rendered + "'";
    Fail(std::move(rendered), "Map keys must satisfy constraint: " + ConstraintSet(*shape.key));
    return;
  }
}

}  // namespace

Status Read(const Shape& input, const json::Value& body, const json::Value** values,
            Status* constraints) {
  Walk walk;
  walk.Structure(input, body, values);
  Status result = walk.Result();
  if (constraints == nullptr || result.ok() || result.error().code() == ErrorCode::kSerialization) {
    return result;
  }
  *constraints = std::move(result);
  return Ok{};
}

void Collect(const Shape& shape, const json::Value& object, const json::Value** values) {
  if (!object.IsObject()) return;
  for (const auto& entry : object.GetObject()) {
    if (entry.value.IsNull()) continue;
    const std::string_view name = json::Text(entry.name);
    for (size_t i = 0; i < shape.members.size(); ++i) {
      if (shape.members[i].name != name) continue;
      if (values[i] == nullptr) values[i] = &entry.value;  // the first of a repeated member
      break;
    }
  }
}

std::optional<std::string_view> String(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return json::Text(*value);
}

std::optional<int64_t> Number(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  if (value->IsInt64()) return value->GetInt64();
  if (value->IsUint64()) return INT64_MAX;  // beyond any bound checked
  // A fraction or a huge integer (1E38) arrives as a double: clamped, as converting a double
  // beyond int64's range is undefined.
  const double number = value->GetDouble();
  if (number >= 9.2e18) return INT64_MAX;
  if (number <= -9.2e18) return INT64_MIN;
  return static_cast<int64_t>(number);
}

std::optional<double> Double(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return value->GetDouble();
}

std::optional<bool> Boolean(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return value->GetBool();
}

std::optional<int64_t> TimestampMs(const json::Value* value) {
  if (value == nullptr) return std::nullopt;
  return std::llround(value->GetDouble() * 1000);
}

}  // namespace ddbd::wire
