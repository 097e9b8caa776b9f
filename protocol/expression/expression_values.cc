#include "protocol/expression/expression_values.h"

#include <algorithm>

#include "protocol/ascii.h"
#include "protocol/attribute_value_json.h"

namespace ddbd {

Result<ExpressionValues> ExpressionValues::Decode(const json::Value* value,
                                                  wire::ValueRules rules) {
  ExpressionValues values;
  if (value == nullptr) return values;
  values.given_ = true;
  std::optional<Error> invalid;
  for (const auto& member : value->GetObject()) {
    std::string key(member.name.GetString(), member.name.GetStringLength());
    AttributeDecoder decoder(rules);
    AttributeValue decoded = decoder.DecodeValue(member.value);
    if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
      return serialization.error();
    }
    const bool valid_key = key.size() >= 2 && key[0] == ':' &&
                           std::all_of(key.begin() + 1, key.end(), AsciiIsWordChar);
    // Length before syntax; unlike the names' message, this one gives no size (measured).
    if (key.size() > 255 && !invalid) {
      invalid = Error::Validation(
          "ExpressionAttributeValues contains invalid key: The expression attribute map contains "
          "a key that is too long;");
    }
    if (!valid_key && !invalid) {
      invalid = Error::Validation(
          "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
    }
    if (Status bad = decoder.validation_status(); !bad.ok() && !invalid) {
      // The newer validation layer gives the value's own text, unwrapped (B2).
      invalid = rules.current_layer
                    ? bad.error()
                    : Error::Validation("ExpressionAttributeValues contains invalid value: " +
                                        bad.error().message() + " for key " + key);
    }
    values.values_.emplace(std::move(key), Placeholder{std::move(decoded)});
  }
  if (invalid) return *invalid;
  if (values.values_.empty()) {
    return Error::Validation("ExpressionAttributeValues must not be empty");
  }
  return values;
}

ExpressionValues ExpressionValues::Unbound() {
  ExpressionValues values;
  values.unbound_ = true;
  return values;
}

AttributeValue ExpressionValues::Resolve(std::string_view placeholder, const TokenStream& tokens,
                                         DeferredErrors& errors) {
  if (unbound_) return AttributeValue::String(std::string(placeholder));
  if (const AttributeValue* value = Use(placeholder)) return *value;
  if (!errors.undefined_value) {
    errors.UndefinedValue(tokens.Invalid(
        "An expression attribute value used in expression is not defined; attribute value: " +
        std::string(placeholder)));
  }
  return AttributeValue::Null();
}

const AttributeValue* ExpressionValues::Use(std::string_view placeholder) {
  auto it = values_.find(placeholder);
  if (it == values_.end()) return nullptr;
  it->second.used = true;
  return &it->second.value;
}

Status ExpressionValues::CheckAllUsed() const {
  std::string unused;
  for (const auto& [key, placeholder] : values_) {
    if (placeholder.used) continue;
    unused += unused.empty() ? key : ", " + key;
  }
  if (unused.empty()) return Ok{};
  return Error::Validation(
      "Value provided in ExpressionAttributeValues unused in expressions: keys: {" + unused + "}");
}

}  // namespace ddbd
