// How DynamoDB judges and words an operation's attribute values. During 2026 AWS moved PutItem,
// UpdateItem and DeleteItem to a newer validation layer, whose refusals come in the
// "1 validation error detected: " envelope; GetItem, BatchGetItem and Query share its value
// wordings without the envelope; BatchWriteItem, the transactions and Scan keep the older ones
// (../shared/behaviours-to-match.md B2). Which operation is where is data:
// protocol/model/supplement.json's value_rules, generated into each input as kValueRules.
#pragma once

namespace ddbd::wire {

struct ValueRules {
  // The newer layer's texts: an empty number literal "...numeric value: ", magnitudes in 64 bits,
  // duplicate set members quoted in order, no "ExpressionAttributeValues contains invalid value:
  // ... for key :v" or "The provided starting key is invalid: " wrapper around a value's text.
  bool current_layer = false;
  // Its refusals of values inside the envelope.
  bool envelope = false;
  // Levels a value may nest beyond an item's: a transaction's ConditionCheck and Update values
  // are judged one level later, and an Update's finished item by the item's rule
  // (behaviours-to-match B5, C1).
  int extra_levels = 0;
};

}  // namespace ddbd::wire
