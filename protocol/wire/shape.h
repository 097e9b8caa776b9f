// A request shape of DynamoDB's service model as data: what protocol/generated/requests.cc holds
// for every shape a served request reaches, and what the one reader (reader.h) walks. Only the
// model's facts: kinds, constraints, enums, members, and how coral names them in its messages.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

namespace ddbd::wire {

enum class Kind : uint8_t {
  kString,
  kInteger,
  kLong,
  kDouble,
  kBoolean,
  kTimestamp,
  kBlob,
  kStructure,
  kList,
  kMap,
  // Read by the attribute decoder straight into the engine's form
  // (protocol/attribute_value_json.h), not walked here: an item is parsed once, with DynamoDB's own
  // value rules.
  kAttributeValue,
};

// The model's patterns, each with a hand-written matcher (scripts/generate-wire refuses a shape
// whose pattern has none).
enum class Pattern : uint8_t {
  kNone,
  kName,             // [a-zA-Z0-9_.-]+
  kClientToken,      // ^[^\$]+$
  kCsvDelimiter,     // [,;:|\t ]
  kCsvHeader,        // [\x20-\x21\x23-\x2B\x2D-\x7E]*
  kImportNextToken,  // ([0-9a-f]{16})+
  kS3Bucket,         // ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$
  kS3BucketOwner,    // [0-9]{12}
  kXmlText,          // [\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*
  kPrint,            // \p{Print}+ (Java's: printable ASCII)
};

inline constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::min();

struct Member;

struct Shape {
  Kind kind = Kind::kString;
  // The Java type coral names in "Unrecognized collection type ..." texts.
  std::string_view java_type;
  int64_t min = kUnbounded;  // a length (string, list, map) or a value (numbers)
  int64_t max = kUnbounded;
  Pattern pattern = Pattern::kNone;
  std::span<const std::string_view> enum_values;  // in the order messages list them
  std::span<const Member> members;                // a structure's, in the model's order
  const Shape* element = nullptr;                 // a list's member, a map's value
  const Shape* key = nullptr;                     // a map's key
  // An ARN or a name (TableArn): a value that is not an ARN is checked as this shape as well, as
  // DynamoDB checks a plain table name for 3-255 characters of [a-zA-Z0-9_.-].
  const Shape* plain_name = nullptr;
};

struct Member {
  std::string_view name;  // as sent: TableName
  std::string_view path;  // as messages name it: tableName
  const Shape* shape;
  // Where its failures come in a message among its structure's (scripts/generate-wire says how
  // DynamoDB's order is known).
  uint16_t report_rank;
  bool required;
  // Its length or value-range failures are worded in DynamoDB's newer style: named as sent, the
  // value not quoted (protocol/model/supplement.json's bare_bounds).
  bool bare_bounds;
  // Its absence is answered "The parameter 'X' is required but was not present in the request",
  // before any other constraint failure (supplement.json's parameter_required).
  bool parameter_required;
  // Its map's values are attribute names, judged by the attribute-name rule (supplement.json's
  // attribute_name_values).
  bool attribute_name_values;
  // A required member's absence is no failure when the structure's member of this index is
  // present (-1: always required): CreateTable's KeySchema beside GlobalTableSourceArn
  // (supplement.json's required_unless).
  int8_t excused_by;
};

}  // namespace ddbd::wire
