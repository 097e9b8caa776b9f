// DynamoDB's request-shape validation ("1 validation error detected: Value 'x' at 'path' failed
// to satisfy constraint: ..."): its templates, collected here so they stay verbatim. DynamoDB
// checks every member and reports all failures in one message, joined by "; ".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// The most of a value a constraint failure quotes back: 65,536 bytes, one past the longest name
// DynamoDB allows (an attribute name's 65,535), so every value that breaks a length limit by
// little is quoted whole, as DynamoDB quotes it; a longer one is cut there and ends in "...".
inline constexpr size_t kMaxQuotedValueBytes = 65'536;
std::string Quoted(std::string_view value);

// Collects constraint failures for one request. Values are rendered as DynamoDB renders them:
// strings and numbers quoted ('abc', '0'), lists in Java's toString form, absent values as null.
class ConstraintErrors {
 public:
  void MustNotBeNull(std::string_view path);
  void MinLength(std::string_view value, std::string_view path, size_t min);
  void MaxLength(std::string_view value, std::string_view path, size_t max);
  void Pattern(std::string_view value, std::string_view path, std::string_view pattern);
  // `allowed` is printed in the given order: DynamoDB's order differs per enum and is taken from
  // captures where one exists (e.g. ReturnValues: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE,
  // UPDATED_NEW]).
  // `allowed`: the enum's values as protocol/generated/enums.h lists them (DynamoDB's order).
  void Enum(std::string_view value, std::string_view path,
            std::span<const std::string_view> allowed);
  void MinValue(int64_t value, std::string_view path, int64_t min);
  void MaxValue(int64_t value, std::string_view path, int64_t max);
  // For values rendered by the caller (e.g. a list's Java toString).
  void Add(std::string_view rendered_value, std::string_view path, std::string_view constraint);

  bool empty() const { return failures_.empty(); }
  // Ok, or a ValidationException listing every failure.
  Status ToStatus() const;

 private:
  std::vector<std::string> failures_;
};

// "The parameter 'X' is required but was not present in the request".
Error RequiredParameterMissing(std::string_view parameter);

// Attribute names are at most 65,535 bytes (the model's AttributeName).
inline constexpr size_t kMaxAttributeNameBytes = 65535;

// Java's toString of a list of strings, as coral renders a list value in messages: "[a, b]".
std::string JavaList(const std::vector<std::string>& items);

// Table names: [a-zA-Z0-9_.-]+, 3 to 255 characters.
inline constexpr std::string_view kTableNamePattern = "[a-zA-Z0-9_.-]+";
bool IsValidTableNameCharacters(std::string_view name);

}  // namespace ddbd
