// ExpressionAttributeValues: ":placeholder" -> AttributeValue, shared by every expression of one
// request, with DynamoDB's checks of keys, values and use.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "engine/model/attribute_value.h"
#include "protocol/expression/document_paths.h"
#include "protocol/json_reader.h"
#include "protocol/wire/value_rules.h"

namespace ddbd {

class ExpressionValues {
 public:
  // SerializationException for wrongly typed JSON; ValidationException for a bad key, an empty
  // map, or an invalid value ("ExpressionAttributeValues contains invalid value: ... for key :v").
  static Result<ExpressionValues> Decode(const json::Value* value, wire::ValueRules rules = {});
  // Values in which every placeholder stands for itself ({S: ":v"}): a parse kept to be bound
  // later.
  static ExpressionValues Unbound();

  bool given() const { return given_; }
  // The value for `placeholder`, recording its use; records an undefined-value error otherwise.
  AttributeValue Resolve(std::string_view placeholder, const TokenStream& tokens,
                         DeferredErrors& errors);
  // The value for `placeholder`, recording its use; null when there is none.
  const AttributeValue* Use(std::string_view placeholder);
  Status CheckAllUsed() const;

 private:
  // A value and whether an expression used it (a flag, not a set of used keys: no allocation
  // per use).
  struct Placeholder {
    AttributeValue value;
    bool used = false;
  };
  bool given_ = false;
  bool unbound_ = false;
  std::map<std::string, Placeholder, std::less<>> values_;
};

}  // namespace ddbd
