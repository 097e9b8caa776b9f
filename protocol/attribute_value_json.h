// DynamoDB JSON <-> AttributeValue. Decoding applies every check DynamoDB makes on values:
// exactly one type, numbers in range, non-empty duplicate-free sets, NULL true, valid base64,
// nesting at most 32 levels (a transaction's ConditionCheck and Update values 33). A request's
// wrongly typed JSON (SerializationException) is reported before any invalid value
// (ValidationException), wherever each occurs, so the decoder records the first of each and keeps
// going.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "engine/api/items.h"
#include "engine/error.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/model/number.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "protocol/wire/value_rules.h"

namespace ddbd {

class AttributeDecoder {
 public:
  // `rules`: the operation's (its input's kValueRules), which word the refusals of numbers and
  // sets.
  explicit AttributeDecoder(wire::ValueRules rules = {}) : rules_(rules) {}
  wire::ValueRules rules() const { return rules_; }

  // A map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey, ...). `value` may
  // be null (absent): the result is then an empty item.
  Item DecodeItem(const json::Value* value);
  AttributeValue DecodeValue(const json::Value& value);

  // The first serialization error, else the first validation error, else Ok.
  Status status() const;
  // Each kind alone, for callers that must report request-shape constraints in between.
  Status serialization_status() const;
  Status validation_status() const;
  // The validation error when it is of an item's own attribute name (empty, too long), which
  // DynamoDB reports before anything else of the item's values.
  Status top_level_name_status() const;
  bool failed() const { return serialization_ || validation_; }

 private:
  // DecodeValueAt and DecodeMapAt recurse (at most kMaxContainerLevel + 1 + rules_.extra_levels
  // levels); the leaf types are decoded in functions of their own, so the recursive frames stay
  // small (the server runs on 256 KB thread stacks, also under AddressSanitizer, whose frames are
  // larger).
  AttributeValue DecodeValueAt(const json::Value& value, int depth);
  AttributeMap DecodeMapAt(const json::Value& object, int depth);
  void DecodeScalar(AttributeType type, const json::Value& member, AttributeValue& result);
  void DecodeFlag(AttributeType type, const json::Value& member, AttributeValue& result);
  void DecodeSet(AttributeType type, const json::Value& member, AttributeValue& result);
  void NotAnAttributeValue(const json::Value& value);
  void CheckTypeCount(int types);
  // The member of an L or M value to recurse into; null (the error recorded) if there is none.
  const json::Value* NestedList(const json::Value& member, int depth);
  const json::Value* NestedMap(const json::Value& member, int depth);
  // Which of several validation errors is reported: the lowest precedence, then the first met.
  enum class Precedence { kTopLevelName, kValue, kNestedName };
  void Serialization(Error error);
  void Validation(Error error, Precedence precedence = Precedence::kValue);
  // A refusal of a number or a set, in the envelope where the operation's layer puts it.
  Error Valued(const Error& error) const;
  Error Duplicates(AttributeType type, const json::Value& list) const;
  Number::Layer NumberLayer() const {
    return rules_.current_layer ? Number::Layer::kCurrent : Number::Layer::kOlder;
  }

  wire::ValueRules rules_;

  std::optional<Error> serialization_;
  std::optional<Error> validation_;
  Precedence validation_precedence_ = Precedence::kValue;
};

void EncodeAttributeValue(json::Writer& writer, const AttributeValue& value);
void EncodeItem(json::Writer& writer, const Item& item);
// The same JSON straight from a stored blob (engine/item_codec.h), without decoding it first.
void EncodeItemBlob(json::Writer& writer, std::string_view blob);
// An item a read returns (engine/api/items.h ReadItem): straight from its stored blob, or as the
// engine projected it.
void EncodeReadItem(json::Writer& writer, const ReadItem& read);

}  // namespace ddbd
