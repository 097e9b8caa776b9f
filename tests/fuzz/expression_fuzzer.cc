// Fuzzes the expression parsers: the first byte picks ConditionExpression, UpdateExpression or
// ProjectionExpression, the rest is the expression. Whatever parses is also evaluated or applied
// against a fixed item, so the engine's evaluation is exercised too. Any crash, sanitizer report
// or hang is a bug: every input must end in a result or a ValidationException.
#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
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
constexpr const char* kItem =
    R"({"a":{"N":"5"},"b":{"S":"xyz"},"l":{"L":[{"N":"1"},{"M":{"k":{"S":"v"}}}]},)"
    R"("m":{"M":{"n":{"M":{}}}},"s":{"SS":["x"]}})";

ddbd::Item FixedItem() {
  rapidjson::Document document;
  document.Parse(kItem);
  ddbd::AttributeDecoder decoder;
  return decoder.DecodeItem(&document);
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
      break;
    }
    case 1: {
      auto update = ddbd::ParseUpdate(text, names.value(), values.value());
      if (update.ok()) {
        ddbd::Item item = FixedItem();
        (void)ddbd::ApplyUpdate(update.value(), item);
      }
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
