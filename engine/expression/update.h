// Update expressions (UpdateItem's SET, REMOVE, ADD, DELETE) with placeholders resolved, and
// their application to an item as DynamoDB defines it.
#pragma once

#include <vector>

#include "engine/error.h"
#include "engine/expression/condition.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace ddbd {

// The right-hand side of a SET action.
struct UpdateValue {
  enum class Kind { kOperand, kPlus, kMinus, kIfNotExists, kListAppend };
  Kind kind = Kind::kOperand;
  Operand operand;                // kOperand: a path or a literal
  std::vector<UpdateValue> args;  // two for the others; kIfNotExists: args[0] is the path
  bool operator==(const UpdateValue& other) const = default;
};

struct UpdateAction {
  enum class Kind { kSet, kRemove, kAdd, kDelete };
  Kind kind = Kind::kSet;
  DocumentPath path;
  UpdateValue value;       // kSet
  AttributeValue operand;  // kAdd, kDelete; a legacy ADD may also give a list, to append
  // From AttributeUpdates: a type mismatch in ADD or DELETE is then "Type mismatch for attribute
  // to update", as DynamoDB words it for the legacy parameter.
  bool legacy = false;
  bool operator==(const UpdateAction& other) const = default;
};

// Applies `actions` to `item`. Every SET value is computed from the item as it was before the
// update, so "SET a = b, b = a" swaps. ValidationException: "The document path provided in the
// update expression is invalid for update", "The provided expression refers to an attribute that
// does not exist in the item", "An operand in the update expression has an incorrect data type",
// and the number limits.
Status ApplyUpdate(const std::vector<UpdateAction>& actions, Item& item);

}  // namespace ddbd
