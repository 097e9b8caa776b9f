// Fuzzes the expression parsers: the first byte picks ConditionExpression, UpdateExpression or
// ProjectionExpression, the rest is the expression. Whatever parses is also evaluated or applied
// against a fixed item, so the engine's evaluation is exercised too. Any crash, sanitizer report
// or hang is a bug: every input must end in a result or a ValidationException. A condition or
// update is also kept (kept_parses.cc) and bound to other names and values, whose result must be
// what parsing it afresh with them gives: a difference traps.
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "protocol/attribute_value_json.h"
#include "protocol/expression/condition_parser.h"
#include "protocol/expression/update_parser.h"
#include "protocol/projection.h"

namespace {

constexpr const char* kNames = R"({"#a":"a","#b":"b","#l":"l"})";
constexpr const char* kValues =
    R"({":n":{"N":"1"},":s":{"S":"x"},":ss":{"SS":["x","y"]},":l":{"L":[{"N":"2"}]},)"
    R"(":m":{"M":{"k":{"S":"v"}}},":b":{"B":"AQ=="},":t":{"S":"S"}})";
// Other names and values under the same keys: two names made one, other types, :b not defined.
constexpr const char* kOtherNames = R"({"#a":"b","#b":"b","#l":"a"})";
constexpr const char* kOtherValues =
    R"({":n":{"S":"1"},":s":{"N":"2"},":ss":{"NS":["1"]},":l":{"BOOL":true},)"
    R"(":m":{"NULL":true},":t":{"S":"X"}})";
constexpr const char* kItem =
    R"({"a":{"N":"5"},"b":{"S":"xyz"},"l":{"L":[{"N":"1"},{"M":{"k":{"S":"v"}}}]},)"
    R"("m":{"M":{"n":{"M":{}}}},"s":{"SS":["x"]}})";

ddbd::Item FixedItem() {
  rapidjson::Document document;
  document.Parse(kItem);
  ddbd::AttributeDecoder decoder;
  return decoder.DecodeItem(&document);
}

// `text` kept with the fixed names and values (`kept` parses through this thread's kept parses,
// `afresh` from the text), then bound to the other ones: the same as a parse, or a trap.
template <typename Kept, typename Afresh>
void CheckKeptParse(Kept kept_parse, Afresh afresh_parse) {
  rapidjson::Document names_json;
  names_json.Parse(kNames);
  rapidjson::Document values_json;
  values_json.Parse(kValues);
  for (int i = 0; i < 3; ++i) {
    auto names = ddbd::ExpressionNames::Decode(&names_json);
    auto values = ddbd::ExpressionValues::Decode(&values_json);
    if (!kept_parse(names.value(), values.value()).ok()) return;
  }
  rapidjson::Document other_names_json;
  other_names_json.Parse(kOtherNames);
  rapidjson::Document other_values_json;
  other_values_json.Parse(kOtherValues);
  auto kept_names = ddbd::ExpressionNames::Decode(&other_names_json);
  auto kept_values = ddbd::ExpressionValues::Decode(&other_values_json);
  auto names = ddbd::ExpressionNames::Decode(&other_names_json);
  auto values = ddbd::ExpressionValues::Decode(&other_values_json);
  auto kept = kept_parse(kept_names.value(), kept_values.value());
  auto afresh = afresh_parse(names.value(), values.value());
  const bool same = kept.ok() == afresh.ok() &&
                    (kept.ok() ? kept.value() == afresh.value()
                               : kept.error().message() == afresh.error().message()) &&
                    kept_names.value().CheckAllUsed().ok() == names.value().CheckAllUsed().ok() &&
                    kept_values.value().CheckAllUsed().ok() == values.value().CheckAllUsed().ok();
  if (!same) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  rapidjson::Document names_json;
  names_json.Parse(kNames);
  rapidjson::Document values_json;
  values_json.Parse(kValues);
  auto names = ddbd::ExpressionNames::Decode(&names_json);
  auto values = ddbd::ExpressionValues::Decode(&values_json);
  switch (data[0] % 3) {
    case 0: {
      auto condition =
          ddbd::ParseCondition(text, "ConditionExpression", names.value(), values.value());
      if (condition.ok()) ddbd::Evaluate(condition.value(), FixedItem());
      CheckKeptParse(
          [&](ddbd::ExpressionNames& n, ddbd::ExpressionValues& v) {
            return ddbd::ParseCondition(text, "ConditionExpression", n, v);
          },
          [&](ddbd::ExpressionNames& n, ddbd::ExpressionValues& v) {
            return ddbd::ParseConditionAfresh(text, "ConditionExpression", n, v);
          });
      break;
    }
    case 1: {
      auto update = ddbd::ParseUpdate(text, names.value(), values.value());
      if (update.ok()) {
        ddbd::Item item = FixedItem();
        (void)ddbd::ApplyUpdate(update.value(), item);
      }
      CheckKeptParse([&](ddbd::ExpressionNames& n,
                         ddbd::ExpressionValues& v) { return ddbd::ParseUpdate(text, n, v); },
                     [&](ddbd::ExpressionNames& n, ddbd::ExpressionValues& v) {
                       return ddbd::ParseUpdateAfresh(text, n, v);
                     });
      break;
    }
    default: {
      ddbd::ProjectionMembers members;
      members.projection_expression = text;
      (void)ddbd::DecodeProjection(members);
      break;
    }
  }
  return 0;
}
