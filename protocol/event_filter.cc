#include "protocol/event_filter.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "protocol/json_parse.h"

namespace ddbd {

// One matcher of a field's array.
struct Matcher {
  enum class Kind { kEquals, kPrefix, kSuffix, kEqualsIgnoreCase, kAnythingBut, kNumeric, kExists };
  Kind kind = Kind::kEquals;
  // kEquals and kAnythingBut: the values (JSON text kinds kept: string, number, bool, null).
  struct Value {
    enum class Type { kString, kNumber, kTrue, kFalse, kNull } type = Type::kNull;
    std::string text;
    double number = 0;
  };
  std::vector<Value> values;
  std::string text;  // prefix, suffix, equals-ignore-case
  // kNumeric: up to two comparisons.
  std::vector<std::pair<std::string, double>> comparisons;
  bool exists = true;
};

struct EventFilter::Rule {
  // An object rule: each named member must match. A leaf: any matcher may match.
  std::vector<std::pair<std::string, std::unique_ptr<Rule>>> members;
  std::vector<Matcher> matchers;
  bool leaf = false;
};

namespace {

using Rule = EventFilter::Rule;

bool ReadValue(const rapidjson::Value& json, Matcher::Value& value) {
  using Type = Matcher::Value::Type;
  if (json.IsString()) {
    value.type = Type::kString;
    value.text.assign(json.GetString(), json.GetStringLength());
  } else if (json.IsNumber()) {
    value.type = Type::kNumber;
    value.number = json.GetDouble();
  } else if (json.IsBool()) {
    value.type = json.GetBool() ? Type::kTrue : Type::kFalse;
  } else if (json.IsNull()) {
    value.type = Type::kNull;
  } else {
    return false;
  }
  return true;
}

bool ReadMatcher(const rapidjson::Value& json, Matcher& matcher, std::string& problem) {
  if (!json.IsObject()) {
    matcher.kind = Matcher::Kind::kEquals;
    Matcher::Value value;
    if (!ReadValue(json, value)) {
      problem = "a rule's array holds an array";
      return false;
    }
    matcher.values.push_back(std::move(value));
    return true;
  }
  if (json.MemberCount() != 1) {
    problem = "a comparison object takes exactly one operator";
    return false;
  }
  const auto& member = *json.MemberBegin();
  const std::string_view name(member.name.GetString(), member.name.GetStringLength());
  const rapidjson::Value& operand = member.value;
  if (name == "prefix" || name == "suffix" || name == "equals-ignore-case") {
    if (!operand.IsString()) {
      problem = std::string(name) + " takes a string";
      return false;
    }
    matcher.kind = name == "prefix"   ? Matcher::Kind::kPrefix
                   : name == "suffix" ? Matcher::Kind::kSuffix
                                      : Matcher::Kind::kEqualsIgnoreCase;
    matcher.text.assign(operand.GetString(), operand.GetStringLength());
    return true;
  }
  if (name == "anything-but") {
    matcher.kind = Matcher::Kind::kAnythingBut;
    if (operand.IsArray()) {
      for (const rapidjson::Value& each : operand.GetArray()) {
        Matcher::Value value;
        if (!ReadValue(each, value)) {
          problem = "anything-but takes values";
          return false;
        }
        matcher.values.push_back(std::move(value));
      }
      if (!matcher.values.empty()) return true;
    } else {
      Matcher::Value value;
      if (ReadValue(operand, value)) {
        matcher.values.push_back(std::move(value));
        return true;
      }
    }
    problem = "anything-but takes a value or an array of values";
    return false;
  }
  if (name == "numeric") {
    matcher.kind = Matcher::Kind::kNumeric;
    if (!operand.IsArray() || (operand.Size() != 2 && operand.Size() != 4)) {
      problem = "numeric takes one or two comparisons: [\">\", 0, \"<=\", 5]";
      return false;
    }
    for (rapidjson::SizeType i = 0; i < operand.Size(); i += 2) {
      const rapidjson::Value& op = operand[i];
      const rapidjson::Value& number = operand[i + 1];
      const std::string text = op.IsString() ? op.GetString() : "";
      if ((text != "=" && text != "<" && text != "<=" && text != ">" && text != ">=") ||
          !number.IsNumber()) {
        problem = "numeric takes =, <, <=, > or >= each followed by a number";
        return false;
      }
      matcher.comparisons.emplace_back(text, number.GetDouble());
    }
    return true;
  }
  if (name == "exists") {
    if (!operand.IsBool()) {
      problem = "exists takes true or false";
      return false;
    }
    matcher.kind = Matcher::Kind::kExists;
    matcher.exists = operand.GetBool();
    return true;
  }
  problem = "unknown operator " + std::string(name);
  return false;
}

std::unique_ptr<Rule> ReadRule(const rapidjson::Value& json, int depth, std::string& problem) {
  if (depth > EventFilter::kMaxDepth) {
    problem = "the pattern nests deeper than " + std::to_string(EventFilter::kMaxDepth);
    return nullptr;
  }
  auto rule = std::make_unique<Rule>();
  if (json.IsArray()) {
    rule->leaf = true;
    if (json.Empty()) {
      problem = "a field's array of matchers is empty";
      return nullptr;
    }
    for (const rapidjson::Value& each : json.GetArray()) {
      Matcher matcher;
      if (!ReadMatcher(each, matcher, problem)) return nullptr;
      rule->matchers.push_back(std::move(matcher));
    }
    return rule;
  }
  if (!json.IsObject() || json.MemberCount() == 0) {
    problem = "a field's rule must be an array of matchers or an object of fields";
    return nullptr;
  }
  for (const auto& member : json.GetObject()) {
    auto inner = ReadRule(member.value, depth + 1, problem);
    if (!inner) return nullptr;
    rule->members.emplace_back(std::string(member.name.GetString(), member.name.GetStringLength()),
                               std::move(inner));
  }
  return rule;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

bool Same(const Matcher::Value& value, const rapidjson::Value& json) {
  using Type = Matcher::Value::Type;
  switch (value.type) {
    case Type::kString:
      return json.IsString() &&
             std::string_view(json.GetString(), json.GetStringLength()) == value.text;
    case Type::kNumber:
      return json.IsNumber() && json.GetDouble() == value.number;
    case Type::kTrue:
      return json.IsTrue();
    case Type::kFalse:
      return json.IsFalse();
    case Type::kNull:
      return json.IsNull();
  }
  return false;
}

// `json` one value (not an array) of a present field.
bool MatchesValue(const Matcher& matcher, const rapidjson::Value& json) {
  const auto text = [&json] { return std::string_view(json.GetString(), json.GetStringLength()); };
  switch (matcher.kind) {
    case Matcher::Kind::kEquals:
      return Same(matcher.values.front(), json);
    case Matcher::Kind::kPrefix:
      return json.IsString() && text().starts_with(matcher.text);
    case Matcher::Kind::kSuffix:
      return json.IsString() && text().ends_with(matcher.text);
    case Matcher::Kind::kEqualsIgnoreCase:
      return json.IsString() && EqualsIgnoringCase(text(), matcher.text);
    case Matcher::Kind::kAnythingBut:
      return std::none_of(matcher.values.begin(), matcher.values.end(),
                          [&json](const Matcher::Value& value) { return Same(value, json); });
    case Matcher::Kind::kNumeric:
      if (!json.IsNumber()) return false;
      for (const auto& [op, bound] : matcher.comparisons) {
        const double number = json.GetDouble();
        const bool holds = op == "="    ? number == bound
                           : op == "<"  ? number < bound
                           : op == "<=" ? number <= bound
                           : op == ">"  ? number > bound
                                        : number >= bound;
        if (!holds) return false;
      }
      return true;
    case Matcher::Kind::kExists:
      return matcher.exists && !json.IsObject();
  }
  return false;
}

bool MatchesLeaf(const Rule& rule, const rapidjson::Value* field) {
  for (const Matcher& matcher : rule.matchers) {
    if (matcher.kind == Matcher::Kind::kExists && !matcher.exists) {
      if (field == nullptr) return true;
      continue;
    }
    if (field == nullptr) continue;
    if (field->IsArray()) {
      for (const rapidjson::Value& each : field->GetArray()) {
        if (MatchesValue(matcher, each)) return true;
      }
    } else if (MatchesValue(matcher, *field)) {
      return true;
    }
  }
  return false;
}

bool MatchesObject(const Rule& rule, const rapidjson::Value& object) {
  for (const auto& [name, inner] : rule.members) {
    const rapidjson::Value* field = nullptr;
    if (object.IsObject()) {
      auto found =
          object.FindMember(rapidjson::Value(rapidjson::StringRef(name.data(), name.size())));
      if (found != object.MemberEnd()) field = &found->value;
    }
    if (inner->leaf) {
      if (!MatchesLeaf(*inner, field)) return false;
    } else if (field == nullptr || !field->IsObject() || !MatchesObject(*inner, *field)) {
      return false;
    }
  }
  return true;
}

}  // namespace

EventFilter::EventFilter(std::unique_ptr<Rule> root) : root_(std::move(root)) {}
EventFilter::~EventFilter() = default;

std::unique_ptr<EventFilter> EventFilter::Compile(std::string_view pattern, std::string& problem) {
  std::string text(pattern);
  rapidjson::Document document;
  if (!json::ParseInPlace(text, document)) {
    problem = "the pattern is not JSON";
    return nullptr;
  }
  if (!document.IsObject() || document.MemberCount() == 0) {
    problem = "the pattern must be a JSON object naming fields";
    return nullptr;
  }
  auto root = ReadRule(document, 1, problem);
  if (!root) return nullptr;
  return std::unique_ptr<EventFilter>(new EventFilter(std::move(root)));
}

bool EventFilter::Matches(const rapidjson::Value& record) const {
  return MatchesObject(*root_, record);
}

}  // namespace ddbd
