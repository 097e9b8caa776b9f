// Condition expressions (ConditionExpression, later FilterExpression) as a tree with every
// placeholder already resolved, and their evaluation against an item as DynamoDB defines it.
#pragma once

#include <optional>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace ddbd {

// A value in a condition: an attribute of the item, a literal, or size(path).
struct Operand {
  enum class Kind { kPath, kValue, kSize };
  Kind kind = Kind::kPath;
  DocumentPath path;     // kPath, kSize
  AttributeValue value;  // kValue
  bool operator==(const Operand& other) const = default;
};

struct Condition {
  enum class Kind {
    kCompare,             // operands[0] <comparator> operands[1]
    kBetween,             // operands[0] BETWEEN operands[1] AND operands[2]
    kIn,                  // operands[0] IN (operands[1..])
    kAnd,                 // children
    kOr,                  // children
    kNot,                 // children[0]
    kAttributeExists,     // operands[0] is a path
    kAttributeNotExists,  // operands[0] is a path
    kAttributeType,       // operands[0] path, operands[1] value (type name)
    kBeginsWith,          // operands[0], operands[1]
    kContains,            // operands[0], operands[1]
  };
  enum class Comparator { kEq, kNe, kLt, kLe, kGt, kGe };

  Kind kind = Kind::kCompare;
  Comparator comparator = Comparator::kEq;
  std::vector<Operand> operands;
  std::vector<Condition> children;
  bool operator==(const Condition& other) const = default;
};

// The value at `path` in `item`, or null when any step is missing or of the wrong type.
const AttributeValue* ResolvePath(const Item& item, const DocumentPath& path);

// True if `condition` holds for `item` (empty when the item does not exist). Comparisons with a
// missing attribute or values of different types are false, except <> which is then true.
bool Evaluate(const Condition& condition, const Item& item);

// What size() gives for `value`: characters of a string, bytes of a binary, members of a set,
// list or map; nullopt for a number, boolean or null, which have no size.
std::optional<size_t> SizeOf(const AttributeValue& value);

// <0, 0, >0 for two N, S or B values of the same type (numbers by value, strings and binary by
// unsigned bytes). Callers check the types first.
int CompareScalars(const AttributeValue& a, const AttributeValue& b);

}  // namespace ddbd
