#include "protocol/attribute_value_json.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/item_codec.h"
#include "engine/model/number.h"
#include "protocol/base64.h"

namespace ddbd {
namespace {

struct TypeKey {
  const char* name;
  AttributeType type;
};
constexpr TypeKey kTypeKeys[] = {
    {"S", AttributeType::kS},       {"N", AttributeType::kN},       {"B", AttributeType::kB},
    {"BOOL", AttributeType::kBool}, {"NULL", AttributeType::kNull}, {"M", AttributeType::kM},
    {"L", AttributeType::kL},       {"SS", AttributeType::kSS},     {"NS", AttributeType::kNS},
    {"BS", AttributeType::kBS},
};

constexpr size_t kTypeCount = std::size(kTypeKeys);

// The place in kTypeKeys of a type name, or -1.
constexpr int TypeKeyIndex(std::string_view name) {
  switch (name.size()) {
    case 1:
      switch (name[0]) {
        case 'S':
          return 0;
        case 'N':
          return 1;
        case 'B':
          return 2;
        case 'M':
          return 5;
        case 'L':
          return 6;
        default:
          return -1;
      }
    case 2:
      if (name[1] != 'S') return -1;
      return name[0] == 'S' ? 7 : name[0] == 'N' ? 8 : name[0] == 'B' ? 9 : -1;
    case 4:
      return name == "BOOL" ? 3 : name == "NULL" ? 4 : -1;
    default:
      return -1;
  }
}

static_assert([] {
  for (size_t i = 0; i < kTypeCount; ++i) {
    if (TypeKeyIndex(kTypeKeys[i].name) != static_cast<int>(i)) return false;
  }
  return true;
}());

// The members of an attribute value (an object) that name a type, by their place in
// kTypeKeys: one pass over the object's members (usually one) where a lookup per type name read
// them ten times. Each name's first member counts, as FindMember finds it, and none whose value
// is null, as json::Member skips those. `present` has a bit for each found (by its place), so a
// caller visits the one or two there are, in that order, not all ten places.
struct FoundTypes {
  std::array<const json::Value*, kTypeCount> members{};
  unsigned present = 0;
};
FoundTypes TypeMembers(const json::Value& value) {
  FoundTypes found;
  unsigned seen = 0;
  for (const auto& member : value.GetObject()) {
    const int index =
        TypeKeyIndex(std::string_view(member.name.GetString(), member.name.GetStringLength()));
    if (index < 0 || ((seen >> index) & 1u) != 0) continue;
    seen |= 1u << index;
    if (!member.value.IsNull()) {
      found.members[static_cast<size_t>(index)] = &member.value;
      found.present |= 1u << index;
    }
  }
  return found;
}

Error NestingTooDeep() { return Error::Validation(std::string(kNestingTooDeep)); }

// A name of at most 65,535 bytes (the model's AttributeName), at any depth: DynamoDB's own text,
// recorded for item attributes and nested map keys (../shared/behaviours-to-match.md B4).
constexpr size_t kMaxAttributeNameBytes = 65'535;
Error NameTooLarge() {
  return Error::Validation(
      "1 validation error detected: Attribute name is too large, must be less than 65536 bytes");
}

// The older layer's rendering of a set's members: as sent, unquoted ([b, a, b]).
std::string Joined(const json::Value& list) {
  std::string text = "[";
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    if (i > 0) text += ", ";
    text += list[i].GetString();
  }
  return text + "]";
}

// The newer layer's: as a sorted set fills until the first repeat (the members so far in byte
// order, of their bytes for BS), then the repeat, then the rest as sent, each quoted: ["a", "b",
// "b"] for SS [b, a, b], joined with `separator`.
std::string SortedUntilRepeat(const json::Value& list, bool binary, const char* separator) {
  std::map<std::string, std::string> sorted;  // bytes -> as sent
  std::vector<std::string> shown;
  rapidjson::SizeType i = 0;
  for (; i < list.Size(); ++i) {
    const std::string sent(list[i].GetString(), list[i].GetStringLength());
    std::string bytes = sent;
    if (binary) {
      auto decoded = Base64Decode(sent);
      if (decoded.ok()) bytes = std::move(decoded).value();
    }
    if (sorted.contains(bytes)) break;
    sorted.emplace(std::move(bytes), sent);
  }
  for (const auto& entry : sorted) shown.push_back(entry.second);
  for (; i < list.Size(); ++i) shown.emplace_back(list[i].GetString(), list[i].GetStringLength());
  std::string text = "[";
  for (size_t k = 0; k < shown.size(); ++k) {
    if (k > 0) text += separator;
    text += json::Quoted(shown[k]);
  }
  return text + "]";
}

}  // namespace

Error AttributeDecoder::Valued(const Error& error) const {
  if (!rules_.envelope) return error;
  return Error::Validation("1 validation error detected: " + error.message());
}

Error AttributeDecoder::Duplicates(AttributeType type, const json::Value& list) const {
  if (!rules_.current_layer) {
    return Error::Validation(
        type == AttributeType::kSS ? std::string(kInvalidParameterValues) + "Input collection " +
                                         Joined(list) + " contains duplicates."
        : type == AttributeType::kNS ? std::string("Input collection contains duplicates")
                                     : std::string(kInvalidParameterValues) + "Input collection " +
                                           Joined(list) + "of type BS contains duplicates.");
  }
  return Valued(Error::Validation(
      type == AttributeType::kSS
          ? std::string(kInvalidParameterValues) + "Input collection " +
                SortedUntilRepeat(list, false, ", ") + " contains duplicates."
      : type == AttributeType::kNS
          ? std::string(kInvalidParameterValues) + "Input collection contains duplicates."
          : std::string(kInvalidParameterValues) + "Input collection " +
                SortedUntilRepeat(list, true, ",") + "of type BS contains duplicates."));
}

void AttributeDecoder::Serialization(Error error) {
  if (!serialization_) serialization_ = std::move(error);
}

void AttributeDecoder::Validation(Error error, Precedence precedence) {
  if (!validation_ || precedence < validation_precedence_) {
    validation_ = std::move(error);
    validation_precedence_ = precedence;
  }
}

Status AttributeDecoder::status() const {
  if (serialization_) return *serialization_;
  if (validation_) return *validation_;
  return Ok{};
}

Status AttributeDecoder::serialization_status() const {
  if (serialization_) return *serialization_;
  return Ok{};
}

Status AttributeDecoder::validation_status() const {
  if (validation_) return *validation_;
  return Ok{};
}

Status AttributeDecoder::top_level_name_status() const {
  if (validation_ && validation_precedence_ == Precedence::kTopLevelName) return *validation_;
  return Ok{};
}

Item AttributeDecoder::DecodeItem(const json::Value* value) {
  if (value == nullptr) return {};
  if (value->IsArray()) {
    Serialization(
        Error::Serialization("Unrecognized collection type java.util.Map<java.lang.String, "
                             "com.amazonaws.dynamodb.v20120810.AttributeValue>"));
    return {};
  }
  if (!value->IsObject()) {
    Serialization(Error::Serialization("Unexpected field type"));
    return {};
  }
  return DecodeMapAt(*value, 1);
}

AttributeValue AttributeDecoder::DecodeValue(const json::Value& value) {
  return DecodeValueAt(value, 1);
}

AttributeMap AttributeDecoder::DecodeMapAt(const json::Value& object, int depth) {
  AttributeMap map;
  map.reserve(object.MemberCount());
  for (const auto& member : object.GetObject()) {
    std::string name(member.name.GetString(), member.name.GetStringLength());
    // An item's own attribute names are judged before its values (their nesting, numbers and
    // sets, in document order), and those before the names inside its maps (behaviours-to-match
    // C1, D1).
    const Precedence precedence = depth == 1 ? Precedence::kTopLevelName : Precedence::kNestedName;
    if (name.empty()) Validation(Error::Validation("Empty attribute name"), precedence);
    if (name.size() > kMaxAttributeNameBytes) Validation(NameTooLarge(), precedence);
    if (member.value.IsNull()) continue;
    map.emplace_back(std::move(name), DecodeValueAt(member.value, depth));
  }
  return map;
}

void AttributeDecoder::NotAnAttributeValue(const json::Value& value) {
  if (value.IsArray()) {
    Serialization(Error::Serialization(
        "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"));
  } else {
    Serialization(Error::Serialization("Unexpected value type in payload"));
  }
}

void AttributeDecoder::DecodeScalar(AttributeType type, const json::Value& member,
                                    AttributeValue& result) {
  if (type == AttributeType::kB && !member.IsString()) {
    Serialization(
        Error::Serialization(member.IsObject() || member.IsArray()
                                 ? "Start of structure or map found where not expected"
                                 : "only base-64-encoded strings are convertible to bytes"));
    return;
  }
  auto text = json::AsString(&member);
  if (!text.ok()) {
    Serialization(text.error());
    return;
  }
  if (type == AttributeType::kS) {
    result.scalar = std::string(*text.value());
  } else if (type == AttributeType::kB) {
    auto bytes = Base64Decode(*text.value());
    if (bytes.ok())
      result.scalar = std::move(bytes).value();
    else
      Serialization(bytes.error());
  } else {
    auto number = Number::Parse(*text.value(), NumberLayer());
    if (number.ok())
      result.scalar = number.value().ToString();
    else
      Validation(Valued(number.error()));
  }
}

void AttributeDecoder::DecodeFlag(AttributeType type, const json::Value& member,
                                  AttributeValue& result) {
  auto flag = json::AsBoolean(&member);
  if (!flag.ok()) {
    Serialization(flag.error());
    return;
  }
  result.boolean = type == AttributeType::kBool && *flag.value();
  if (type == AttributeType::kNull && !*flag.value()) {
    Validation(Error::Validation(std::string(kInvalidParameterValues) +
                                 "Null attribute value types must have the value of true"));
  }
}

void AttributeDecoder::DecodeSet(AttributeType type, const json::Value& member,
                                 AttributeValue& result) {
  auto list = json::AsList(&member);
  if (!list.ok()) {
    Serialization(list.error());
    return;
  }
  std::set<std::string> distinct;
  bool all_strings = true;
  for (const auto& element : list.value()->GetArray()) {
    auto text = json::AsString(&element);
    if (!text.ok() || !text.value()) {
      Serialization(text.ok() ? Error::Serialization("Unexpected value type in payload")
                              : text.error());
      all_strings = false;
      continue;
    }
    std::string stored(*text.value());
    if (type == AttributeType::kNS) {
      auto number = Number::Parse(stored, NumberLayer());
      if (!number.ok()) {
        Validation(Valued(number.error()));
        continue;
      }
      stored = number.value().ToString();
    } else if (type == AttributeType::kBS) {
      auto bytes = Base64Decode(stored);
      if (!bytes.ok()) {
        Serialization(bytes.error());
        continue;
      }
      stored = std::move(bytes).value();
    }
    distinct.insert(stored);
    result.members.push_back(std::move(stored));
  }
  if (!all_strings) return;
  if (list.value()->Empty()) {
    Validation(Error::Validation(
        type == AttributeType::kSS
            ? std::string(kInvalidParameterValues) + "An string set  may not be empty"
        : type == AttributeType::kNS
            ? std::string(kInvalidParameterValues) + "An number set  may not be empty"
            : std::string(kInvalidParameterValues) + "Binary sets should not be empty"));
  } else if (distinct.size() != result.members.size()) {
    Validation(Duplicates(type, *list.value()));
  } else {
    SortSetMembers(result);
  }
}

AttributeValue AttributeDecoder::DecodeValueAt(const json::Value& value, int depth) {
  AttributeValue result;
  if (!value.IsObject()) {
    NotAnAttributeValue(value);
    return result;
  }
  int types = 0;
  const FoundTypes found = TypeMembers(value);
  for (unsigned left = found.present; left != 0; left &= left - 1) {
    const auto index = static_cast<size_t>(__builtin_ctz(left));
    const TypeKey& key = kTypeKeys[index];
    const json::Value* member = found.members[index];
    ++types;
    result.type = key.type;
    switch (key.type) {
      case AttributeType::kS:
      case AttributeType::kN:
      case AttributeType::kB:
        DecodeScalar(key.type, *member, result);
        break;
      case AttributeType::kBool:
      case AttributeType::kNull:
        DecodeFlag(key.type, *member, result);
        break;
      case AttributeType::kSS:
      case AttributeType::kNS:
      case AttributeType::kBS:
        DecodeSet(key.type, *member, result);
        break;
      case AttributeType::kL:
        if (const json::Value* list = NestedList(*member, depth)) {
          for (const auto& element : list->GetArray()) {
            result.list.push_back(DecodeValueAt(element, depth + 1));
          }
        }
        break;
      case AttributeType::kM:
        if (const json::Value* map = NestedMap(*member, depth)) {
          result.map = DecodeMapAt(*map, depth + 1);
        }
        break;
    }
  }
  CheckTypeCount(types);
  return result;
}

const json::Value* AttributeDecoder::NestedList(const json::Value& member, int depth) {
  if (depth > kMaxContainerLevel + rules_.extra_levels) {
    Validation(NestingTooDeep());
    return nullptr;
  }
  auto list = json::AsList(&member);
  if (!list.ok()) {
    Serialization(list.error());
    return nullptr;
  }
  return list.value();
}

const json::Value* AttributeDecoder::NestedMap(const json::Value& member, int depth) {
  if (depth > kMaxContainerLevel + rules_.extra_levels) {
    Validation(NestingTooDeep());
    return nullptr;
  }
  if (member.IsArray()) {
    Serialization(
        Error::Serialization("Unrecognized collection type java.util.Map<java.lang.String, "
                             "com.amazonaws.dynamodb.v20120810.AttributeValue>"));
    return nullptr;
  }
  if (!member.IsObject()) {
    Serialization(Error::Serialization("Unexpected field type"));
    return nullptr;
  }
  return &member;
}

void AttributeDecoder::CheckTypeCount(int types) {
  if (types == 0) {
    Validation(Error::Validation(
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"));
  } else if (types > 1) {
    Validation(Error::Validation(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
        "supported datatypes"));
  }
}

void EncodeAttributeValue(json::Writer& writer, const AttributeValue& value) {
  writer.StartObject();
  writer.Key(TypeName(value.type).data(),
             static_cast<rapidjson::SizeType>(TypeName(value.type).size()));
  switch (value.type) {
    case AttributeType::kS:
    case AttributeType::kN:
      json::String(writer, value.scalar);
      break;
    case AttributeType::kB:
      json::String(writer, Base64Encode(value.scalar));
      break;
    case AttributeType::kBool:
      writer.Bool(value.boolean);
      break;
    case AttributeType::kNull:
      writer.Bool(true);
      break;
    case AttributeType::kSS:
    case AttributeType::kNS:
    case AttributeType::kBS: {
      // In DynamoDB's order, which a set read from an item stored before it was kept in it may
      // not be in.
      const AttributeValue* set = &value;
      AttributeValue sorted;
      const auto less = [&value](const std::string& a, const std::string& b) {
        return SetMemberLess(value.type, a, b);
      };
      if (!std::is_sorted(value.members.begin(), value.members.end(), less)) {
        sorted = value;
        SortSetMembers(sorted);
        set = &sorted;
      }
      writer.StartArray();
      for (const std::string& member : set->members) {
        json::String(writer, value.type == AttributeType::kBS ? Base64Encode(member) : member);
      }
      writer.EndArray();
      break;
    }
    case AttributeType::kL:
      writer.StartArray();
      for (const AttributeValue& element : value.list) EncodeAttributeValue(writer, element);
      writer.EndArray();
      break;
    case AttributeType::kM:
      EncodeItem(writer, value.map);
      break;
  }
  writer.EndObject();
}

void EncodeItem(json::Writer& writer, const Item& item) {
  writer.StartObject();
  for (const auto& [name, value] : item) {
    json::String(writer, name);
    EncodeAttributeValue(writer, value);
  }
  writer.EndObject();
}

}  // namespace ddbd
