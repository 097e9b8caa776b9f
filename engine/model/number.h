// DynamoDB's Number: an exact decimal of up to 38 significant digits with magnitude from 1E-130
// to 9.99...E+125, never a double. Parsing applies DynamoDB's limits and messages; ToString gives
// DynamoDB's canonical text ("1.50" -> "1.5", "1E2" -> "100", "-0" -> "0").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/error.h"

namespace ddbd {

class Number {
 public:
  static constexpr size_t kMaxSignificantDigits = 38;

  Number() = default;  // zero

  // Which of DynamoDB's validation layers judges a literal (during 2026 AWS moved some operations
  // to a newer one: ../shared/behaviours-to-match.md B2). They differ in two things: the older
  // words an empty literal without ": " and computes a number's magnitude in 32 bits, so
  // 1e2147483647 wraps round to an underflow where the newer reports an overflow.
  enum class Layer : uint8_t { kOlder, kCurrent };

  // ValidationException: "The parameter cannot be converted to a numeric value[: text]" (also for
  // a written exponent or scale beyond 32 bits, as Java's BigDecimal refuses it), "Attempting to
  // store more than 38 significant digits in a Number", "Number overflow. ...", "Number
  // underflow. ...". Zero is range-checked by its written exponent too (0e126 overflows).
  static Result<Number> Parse(std::string_view text, Layer layer = Layer::kOlder);

  std::string ToString() const;
  bool IsZero() const { return digits_.empty(); }
  bool IsNegative() const { return negative_; }
  size_t SignificantDigits() const { return digits_.size(); }

  // <0, 0, >0 as numerically *this <, ==, > other.
  int Compare(const Number& other) const;
  bool operator==(const Number& other) const { return Compare(other) == 0; }

  // Exact sums, with the result held to DynamoDB's limits (38 significant digits and range):
  // ValidationException as Parse reports them.
  Result<Number> Add(const Number& other) const;
  Result<Number> Subtract(const Number& other) const;

  // Bytes whose memcmp order is numeric order, and which no other number's bytes extend
  // (so they can be followed by more key bytes).
  void AppendOrderedBytes(std::string& out) const;
  // The same bytes from a number's canonical text (ToString's, as items store numbers) without
  // a Parse: an index built over a million items computed them with one each. False, with
  // nothing appended, for text of another shape (a Parse then decides).
  static bool AppendOrderedBytesOfText(std::string& out, std::string_view canonical);

 private:
  // value = (negative ? -1 : 1) * 0.DIGITS * 10^exponent; zero has no digits.
  bool negative_ = false;
  int32_t exponent_ = 0;
  std::string digits_;  // '1'..'9' first and last, at most 38
};

// A number's text as an f32 (vector search: aws-semantics.md section 11), rounded once from the
// decimal text to the nearest f32; none if it is not a number or is beyond f32's range once
// rounded (underflow included).
std::optional<float> NumberAsF32(std::string_view text);

}  // namespace ddbd
